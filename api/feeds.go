package api

import "github.com/gin-gonic/gin"

// feedRoutes mounts this file's routes.
func (s *Server) feedRoutes(r *gin.Engine) {}
