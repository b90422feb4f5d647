package proxy_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/agent-analysis/agent-analysis/kit/proxy"
)

// writeCounter is a connection that counts the writes made to it.
type writeCounter struct {
	net.Conn
	mu     sync.Mutex
	writes int
}

func (c *writeCounter) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.writes++
	c.mu.Unlock()
	return c.Conn.Write(p)
}

func (c *writeCounter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writes
}

// A small body of announced length goes upstream whole, in the write that
// carries the request's headers; a larger one, or one of unknown length,
// as it comes. Either way the agent reads the client's bytes.
func TestASmallBodyGoesWithItsHeaders(t *testing.T) {
	large := append(bytes.Repeat([]byte(" "), 64<<10), input...)
	for _, c := range []struct {
		name      string
		body      []byte
		length    int64 // announced; -1 for none (chunked)
		maxWrites int   // the request's writes to the agent, at most
	}{
		{"small", input, int64(len(input)), 1},
		{"over 64 KiB", large, int64(len(large)), 0},
		{"of unknown length", input, -1, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := make(chan []byte, 1)
			up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				got <- body
				sse(w)
				io.WriteString(w, started)
			})
			var conns []*writeCounter
			transport := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
				if err != nil {
					return nil, err
				}
				wc := &writeCounter{Conn: conn}
				conns = append(conns, wc)
				return wc, nil
			}}
			defer transport.CloseIdleConnections()
			th := start(t, proxy.Config{Upstream: up, Transport: transport})

			req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, th.url, bytes.NewReader(c.body))
			req.ContentLength = c.length
			if c.length < 0 {
				req.Body = io.NopCloser(io.MultiReader(bytes.NewReader(c.body))) // no length known
			}
			req.Header.Set("Content-Type", "application/json")
			resp, err := client(t).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if body := <-got; !bytes.Equal(body, c.body) {
				t.Fatalf("the agent read %d bytes, not the client's %d", len(body), len(c.body))
			}
			if len(conns) != 1 {
				t.Fatalf("%d connections to the agent", len(conns))
			}
			if n := conns[0].count(); c.maxWrites > 0 && n > c.maxWrites {
				t.Errorf("the request went to the agent in %d writes, not %d", n, c.maxWrites)
			}
			th.next(t)
		})
	}
}

// A client whose body breaks off gets a 400 saying why, whether the
// proxy reads the body first (the agent is then sent nothing) or passes it
// on as it comes; the run is the client's doing, not the agent's.
func TestABodyThatBreaksOff(t *testing.T) {
	for _, c := range []struct {
		name   string
		length int64 // announced; -1 for none (chunked)
	}{
		{"small", int64(len(input))},
		{"over 64 KiB", 1 << 20},
		{"of unknown length", -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			reached := make(chan struct{}, 1)
			up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
				reached <- struct{}{}
				io.Copy(io.Discard, r.Body) // never whole: the answer never comes before the body breaks
			})
			runs := make(chan proxy.Run, 1)
			p, err := proxy.New(proxy.Config{Upstream: up, Report: func(r proxy.Run) { runs <- r }})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			broken := errors.New("connection reset by the client")
			body := io.MultiReader(bytes.NewReader(input[:len(input)/2]), iotestErr{broken})
			req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/", body)
			req.ContentLength = c.length
			rec := httptest.NewRecorder()
			p.ServeHTTP(rec, req)
			if rec.Code != http.StatusBadRequest || !bytes.Contains(rec.Body.Bytes(), []byte(broken.Error())) {
				t.Errorf("%d %s", rec.Code, rec.Body)
			}
			select {
			case <-reached:
				if c.name == "small" {
					t.Error("the agent was sent the request")
				}
			default:
			}
			// The client's doing, not the agent's: no rule is broken.
			if run := <-runs; !run.OK() || !strings.Contains(run.Cancelled, "request broke off") || !strings.Contains(run.Cancelled, broken.Error()) {
				t.Errorf("%q", run.Lines(true))
			}
		})
	}
}

// An agent that answers before it has read the whole input, and streams
// while the client still sends it; the client's body then turns malformed.
// The agent's request is cut, so the client's stream is cut too, but the
// run is the client's doing, not a stream the agent broke.
func TestABodyThatBreaksOffMidStream(t *testing.T) {
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		http.NewResponseController(w).EnableFullDuplex()
		sse(w)
		io.WriteString(w, started)
		w.(http.Flusher).Flush()
		io.Copy(io.Discard, r.Body) // ends as the proxy drops the request
		io.WriteString(w, "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n")
	})
	th := start(t, proxy.Config{Upstream: up})
	conn, err := net.Dial("tcp", strings.TrimPrefix(th.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	half := input[:len(input)/2]
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: proxy\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n", len(half), half)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	first := make([]byte, len(started))
	if _, err := io.ReadFull(resp.Body, first); err != nil || string(first) != started {
		t.Fatalf("%q, %v", first, err)
	}
	io.WriteString(conn, "zz\r\n") // not a chunk's length
	if rest, err := io.ReadAll(resp.Body); err == nil {
		t.Errorf("the client's stream ended as if whole: %q", rest)
	}
	if run := th.next(t); !run.OK() || !strings.Contains(run.Cancelled, "request broke off") || run.Events != 1 {
		t.Errorf("%q", run.Lines(true))
	}
}

type iotestErr struct{ err error }

func (e iotestErr) Read([]byte) (int, error) { return 0, e.err }

// A client that sends its headers, then part of a small body, then leaves:
// the proxy waited for the body, as a buffering proxy does, so the agent
// never saw the request; the run is still reported, and no rule is held
// against the agent.
func TestAClientThatLeavesMidBody(t *testing.T) {
	called := make(chan struct{}, 1)
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) { called <- struct{}{} })
	th := start(t, proxy.Config{Upstream: up})
	conn, err := net.Dial("tcp", strings.TrimPrefix(th.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: proxy\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		len(input), input[:len(input)/2])
	conn.Close()
	if run := th.next(t); !run.OK() || run.Status != 0 || !strings.HasPrefix(run.Cancelled, "the client cancelled") {
		t.Errorf("%q", run.Lines(true))
	}
	select {
	case <-called:
		t.Error("the agent was sent a request the client never finished")
	default:
	}
}
