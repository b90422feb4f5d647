package server_test

import (
	"net/http"
	"testing"

	"github.com/agent-analysis/agent-analysis/internal/pipenet"
)

// pipeServer serves h over in-memory pipes: inside a synctest bubble, a
// client that reads slowly does so in virtual time. The client's requests
// go to it whatever their host.
func pipeServer(t *testing.T, h http.Handler) *http.Client {
	t.Helper()
	l := pipenet.Listen()
	srv := &http.Server{Handler: h}
	go srv.Serve(l)
	transport := &http.Transport{DialContext: l.DialContext}
	t.Cleanup(func() {
		transport.CloseIdleConnections()
		srv.Close()
	})
	return &http.Client{Transport: transport}
}
