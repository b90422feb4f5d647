//go:build !js

package effects_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// serve runs h on a loopback server and returns its URL: natively the
// stream posts with net/http.
func serve(t *testing.T, h http.Handler) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}
