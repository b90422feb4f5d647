// Package servertest is the agents the test kit's tests talk to, on
// loopback: this project's server, and upstreams that answer as a test
// says.
package servertest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agent-analysis/agent-analysis/server"
)

// Ours is this project's server, without delays: its AG-UI endpoint.
func Ours(t testing.TB) string {
	t.Helper()
	srv := httptest.NewServer(server.New(server.Config{NoDelay: true}))
	t.Cleanup(srv.Close)
	return srv.URL + "/api/agent-analysis"
}

// Upstream is an agent that answers as handle says.
func Upstream(t testing.TB, handle http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(handle)
	t.Cleanup(srv.Close)
	return srv.URL
}

// NeverAnswers reads the request and sends nothing, until the client
// goes. (Reading the body is what lets net/http notice the client go.)
func NeverAnswers(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	<-r.Context().Done()
}
