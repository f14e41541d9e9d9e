package api

import "github.com/gin-gonic/gin"

// shareRoutes mounts this file's routes.
func (s *Server) shareRoutes(r *gin.Engine) {}
