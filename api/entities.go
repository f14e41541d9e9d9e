package api

import "github.com/gin-gonic/gin"

// entityRoutes mounts this file's routes.
func (s *Server) entityRoutes(r *gin.Engine, api *gin.RouterGroup) {}
