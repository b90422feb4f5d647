package proxy_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/agui/proto"
	"github.com/agent-analysis/agent-analysis/kit/proxy"
	"github.com/agent-analysis/agent-analysis/kit/rules"
	"github.com/agent-analysis/agent-analysis/server"
)

// A client that closes once it has RUN_FINISHED, while the agent holds
// the connection open, cancelled nothing: with Go's own transport the
// proxy's read then ends in the cancelled context, not EOF. The run is
// ok, and the interrupt it ended on is remembered: the next run's resume
// is checked against it.
func TestClientLeavesOnRunFinished(t *testing.T) {
	ours := server.New(server.Config{NoDelay: true})
	held := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		ours.ServeHTTP(w, r)
		http.NewResponseController(w).Flush()
		<-r.Context().Done() // the agent keeps the stream open
	})
	th := start(t, proxy.Config{Upstream: held + "/api/agent-analysis"})
	c := client(t)

	first := []byte(`{"threadId":"th-a","runId":"r1","messages":[],"state":{"services":[]},"forwardedProps":{"scenario":"approval"}}`)
	ctx, leave := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, th.url, bytes.NewReader(first))
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	readThrough(t, resp.Body, `"type":"RUN_FINISHED"`)
	leave()
	resp.Body.Close()
	if run := th.next(t); !run.OK() || run.Cancelled != "" {
		t.Fatalf("a client leaving on RUN_FINISHED: %v", run.Lines(true))
	}

	bad := []byte(`{"threadId":"th-a","runId":"r2","messages":[],"resume":[{"interruptId":"nope","status":"cancelled"}],"forwardedProps":{"scenario":"approval"}}`)
	ctx, leave = context.WithCancel(t.Context())
	defer leave()
	req, _ = http.NewRequestWithContext(ctx, http.MethodPost, th.url, bytes.NewReader(bad))
	req.Header.Set("Content-Type", "application/json")
	if resp, err = c.Do(req); err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1)) // the problem's first byte: the agent has answered
	leave()
	resp.Body.Close()
	if run := th.next(t); run.OK() || run.Failures[0].Rule != rules.Resume || run.Failures[0].Field != "resume/0/interruptId" {
		t.Errorf("a resume naming no interrupt, after a run whose client left on RUN_FINISHED: %v", run.Lines(true))
	}
}

// A client that leaves once every run has ended, but with a frame of what
// follows half sent, left something unread: it cancelled.
func TestClientLeavesInsideTheNextFrame(t *testing.T) {
	started, _ := proto.AppendFrame(nil, []byte(`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`))
	finished, _ := proto.AppendFrame(nil, []byte(`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`))
	next, _ := proto.AppendFrame(nil, []byte(`{"type":"RUN_STARTED","threadId":"t1","runId":"r2"}`))
	sent := slices.Concat(started, finished, next[:9])
	held := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", proto.MediaType)
		w.Write(sent)
		http.NewResponseController(w).Flush()
		<-r.Context().Done()
	})
	th := start(t, proxy.Config{Upstream: held})
	ctx, leave := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, th.url, bytes.NewReader(input))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", proto.MediaType)
	resp, err := client(t).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(resp.Body, make([]byte, len(sent))); err != nil {
		t.Fatal(err)
	}
	leave()
	resp.Body.Close()
	if run := th.next(t); run.Cancelled == "" {
		t.Errorf("a client leaving inside a frame: %v", run.Lines(true))
	}
}

// readThrough reads body up to the end of the event holding marker.
func readThrough(t *testing.T, body io.Reader, marker string) {
	t.Helper()
	lines := bufio.NewReader(body)
	seen := false
	for {
		line, err := lines.ReadString('\n')
		if err != nil {
			t.Fatalf("the stream ended before an event with %s: %v", marker, err)
		}
		seen = seen || strings.Contains(line, marker)
		if seen && line == "\n" {
			return
		}
	}
}

// Go's client reads any three digits as a status, 000 to 099 included,
// which no handler may write: the client gets a 502 problem, the run
// fails http-status, and the proxy still closes.
func TestStatusBelow100(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			if req, err := http.ReadRequest(bufio.NewReader(conn)); err == nil {
				io.Copy(io.Discard, req.Body)
				io.WriteString(conn, "HTTP/1.1 099 Odd\r\nContent-Type: text/event-stream\r\nContent-Length: 0\r\n\r\n")
			}
			conn.Close()
		}
	}()
	th := start(t, proxy.Config{Upstream: "http://" + ln.Addr().String()})
	resp, body := post(t, client(t), th.url, input)
	if resp.StatusCode != http.StatusBadGateway || !strings.Contains(string(body), "status 099, which HTTP does not have") {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
	if run := th.next(t); run.OK() || run.Failures[0].Rule != rules.HTTPStatus || !strings.Contains(run.Failures[0].Text, "the client got 502") {
		t.Errorf("%v", run.Lines(true))
	}
}

// The upstream URL's user info goes as Basic auth, as http.Client (and so
// check -url) sends it, unless the client brings an Authorization of its
// own; it never shows in a report.
func TestUpstreamUserInfo(t *testing.T) {
	seen := make(chan string, 2)
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		seen <- r.Header.Get("Authorization")
		sse(w)
		io.WriteString(w, started+"data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n")
	})
	u, _ := url.Parse(up)
	u.User = url.UserPassword("user", "s3cret")
	th := start(t, proxy.Config{Upstream: u.String()})
	c := client(t)

	post(t, c, th.url, input)
	want := "Basic " + "dXNlcjpzM2NyZXQ=" // user:s3cret
	if got := <-seen; got != want {
		t.Errorf("Authorization %q, want %q", got, want)
	}
	if run := th.next(t); !run.OK() || strings.Contains(strings.Join(run.Lines(true), "\n"), "s3cret") {
		t.Errorf("%v", run.Lines(true))
	}

	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, th.url, bytes.NewReader(input))
	req.Header.Set("Authorization", "Bearer the-client's")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if got := <-seen; got != "Bearer the-client's" {
		t.Errorf("Authorization %q, want the client's own", got)
	}
	th.next(t)
}

// A gzip stream is judged unzipped; a client that leaves on RUN_FINISHED
// while the agent holds it open never gets gzip's trailer, which cuts
// nothing it was sent; a body that is not the gzip it says is unjudged. A
// refused answer is quoted unzipped, or said not to be the gzip it says.
func TestGzipStreams(t *testing.T) {
	started, _ := proto.AppendFrame(nil, []byte(`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`))
	finished, _ := proto.AppendFrame(nil, []byte(`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`))
	frames := slices.Concat(started, finished)
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", proto.MediaType)
		w.Header().Set("Content-Encoding", "gzip")
		switch r.URL.Path {
		case "/not-gzip":
			w.Write(frames)
			return
		case "/refused":
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusServiceUnavailable)
			z := gzip.NewWriter(w)
			z.Write([]byte(`{"title":"Overloaded","detail":"Try again in a minute."}`))
			z.Close()
			return
		case "/refused-not-gzip":
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte("boom: the model is down"))
			return
		}
		z := gzip.NewWriter(w)
		z.Write(frames)
		z.Flush() // no trailer yet
		http.NewResponseController(w).Flush()
		if r.URL.Path == "/held" {
			<-r.Context().Done()
			return
		}
		z.Close()
	})
	th := start(t, proxy.Config{Upstream: up})
	c := client(t)
	for _, tt := range []struct{ path, want string }{
		{"/", ""},
		{"/held", ""},
		{"/not-gzip", "unjudged: the answer is not the gzip it says it is"},
		{"/refused", "the agent answered 503 Service Unavailable, not 2xx: Overloaded Try again in a minute."},
		{"/refused-not-gzip", "the agent answered 500 Internal Server Error, not 2xx: a body that is not the gzip it says it is"},
	} {
		ctx, leave := context.WithCancel(t.Context())
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, th.url+tt.path, bytes.NewReader(input))
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if tt.path == "/held" {
			z, err := gzip.NewReader(resp.Body)
			if err == nil {
				_, err = io.ReadFull(z, make([]byte, len(frames)))
			}
			if err != nil {
				t.Fatal(err)
			}
		} else {
			io.Copy(io.Discard, resp.Body)
		}
		leave()
		resp.Body.Close()
		run := th.next(t)
		if lines := strings.Join(run.Lines(true), "\n"); tt.want == "" && (!run.OK() || run.Cancelled != "" || run.Events != 2) ||
			tt.want != "" && !strings.Contains(lines, tt.want) {
			t.Errorf("%s: %s", tt.path, lines)
		}
	}
}

// A binary answer whose type is not written exactly as the media type is
// passed on as it came and judged as binary, and fails content-type: the
// official client would read it as SSE and find no event.
func TestAnInexactBinaryTypeFails(t *testing.T) {
	started, _ := proto.AppendFrame(nil, []byte(`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`))
	finished, _ := proto.AppendFrame(nil, []byte(`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`))
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", proto.MediaType+"; charset=binary")
		w.Write(slices.Concat(started, finished))
	})
	th := start(t, proxy.Config{Upstream: up})
	resp, body := postAccepting(t, client(t), th.url, input, proto.MediaType)
	run := th.next(t)
	if resp.Header.Get("Content-Type") != proto.MediaType+"; charset=binary" || !bytes.Equal(body, slices.Concat(started, finished)) ||
		run.Events != 2 || len(run.Failures) != 1 || run.Failures[0].Rule != rules.ContentType {
		t.Errorf("%d events: %s", run.Events, strings.Join(run.Lines(true), "\n"))
	}
}
