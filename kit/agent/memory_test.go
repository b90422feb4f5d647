package agent

import (
	"net/http"
	"testing"

	"github.com/agent-analysis/agent-analysis/internal/pipenet"
)

// inMemory serves handle over in-memory connections (net.Pipe), for a
// test in a synctest bubble: there the clock moves only when every
// goroutine waits, so a timeout or a pause is exact, however busy the
// machine. The request goes to it whatever its URL.
func inMemory(t *testing.T, handle http.HandlerFunc) dialer {
	t.Helper()
	l := pipenet.Listen()
	srv := &http.Server{Handler: handle}
	served := make(chan struct{})
	go func() {
		defer close(served)
		srv.Serve(l)
	}()
	t.Cleanup(func() {
		srv.Close() // ends every connection, and with it every handler
		<-served
	})
	return l.DialContext
}
