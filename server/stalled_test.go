package server_test

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-analysis/agent-analysis/internal/pipenet"
	"github.com/agent-analysis/agent-analysis/server"
	"github.com/agent-analysis/agent-analysis/server/library"
)

// Every answer is written with a deadline: a client that sends a request
// and accepts nothing of the answer (its window full, as a client
// pipelining requests it never reads fills it) is dropped, whatever the
// answer, and holds no stream's place meanwhile. A pipe accepts nothing
// until its far end reads: the server's write waits for its deadline, or
// for ever.
func TestAClientThatAcceptsNothingIsDropped(t *testing.T) {
	dir := t.TempDir()
	delayed := `{"name":"delayed","stream":[{"afterMs":50,"event":{"type":"RUN_STARTED","threadId":"t","runId":"r"}},` +
		`{"event":{"type":"RUN_FINISHED","threadId":"t","runId":"r"}}]}`
	if err := os.WriteFile(filepath.Join(dir, "delayed.json"), []byte(delayed), 0o644); err != nil {
		t.Fatal(err)
	}
	scripts, err := library.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	post := func(body string) string {
		return fmt.Sprintf("POST /api/agent-analysis HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	}
	for _, c := range []struct{ name, request string }{
		{"healthz", "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"},
		{"redirect", "GET / HTTP/1.1\r\nHost: x\r\n\r\n"},
		{"the mux's own redirect", "GET /web HTTP/1.1\r\nHost: x\r\n\r\n"},
		{"the mux's cleaned path", "GET /./healthz HTTP/1.1\r\nHost: x\r\n\r\n"},
		{"method not allowed", "GET /api/agent-analysis HTTP/1.1\r\nHost: x\r\n\r\n"},
		{"preflight", "OPTIONS /api/agent-analysis HTTP/1.1\r\nHost: x\r\nOrigin: http://a.example\r\nAccess-Control-Request-Method: POST\r\n\r\n"},
		{"problem", post(`{"threadId":`)},
		{"stream", post(`{"threadId":"t","runId":"r","messages":[]}`)},
		{"stream that starts late", post(`{"threadId":"t","runId":"r","messages":[],"forwardedProps":{"scenario":"delayed"}}`)},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				l := pipenet.Listen()
				h := server.New(server.Config{Scripts: scripts, MaxStreams: 1, WriteTimeout: 100 * time.Millisecond, ProgressTimeout: 300 * time.Millisecond})
				srv := &http.Server{Handler: h}
				go srv.Serve(l)
				defer srv.Close()
				conn, err := l.DialContext(t.Context(), "", "")
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				if _, err := io.WriteString(conn, c.request); err != nil {
					t.Fatal(err)
				}
				time.Sleep(time.Second) // past every write's deadline
				conn.SetReadDeadline(time.Now().Add(time.Millisecond))
				if n, err := conn.Read(make([]byte, 1)); err != io.EOF {
					t.Errorf("the server still waits to write its answer (read %d byte, %v)", n, err)
				}
			})
		})
	}
}
