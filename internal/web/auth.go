package web

import "net/http"

// viewerIsAdmin reports whether the request comes from an administrator's session.
func (s *Server) viewerIsAdmin(r *http.Request) bool {
	u, ok := s.currentUser(r)
	return ok && u.IsAdmin()
}
