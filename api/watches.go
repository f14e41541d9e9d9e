package api

import "github.com/gin-gonic/gin"

// watchRoutes mounts this file's routes.
func (s *Server) watchRoutes(r *gin.Engine, api *gin.RouterGroup) {}
