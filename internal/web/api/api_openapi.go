package api

import (
	"net/http"

	"parking/internal/web/api/openapi"
)

// apiOpenAPI is GET /api/openapi.json: the OpenAPI 3.1 document of every JSON
// route (internal/web/api/openapi), for viewers and client generators.
func (s *Server) apiOpenAPI(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	_, _ = w.Write(openapi.JSON())
}
