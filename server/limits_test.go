package server_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-analysis/agent-analysis/server"
)

// trickle opens a connection, sends a run's headers with a 100-byte body
// announced, and writes one body byte every gap until the server answers
// or stop closes.
func trickle(t testing.TB, addr string, gap time.Duration, stop <-chan struct{}) (net.Conn, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	fmt.Fprint(conn, "POST /api/agent-analysis HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n")
	go func() {
		tick := time.NewTicker(gap)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := conn.Write([]byte(" ")); err != nil {
					return
				}
			}
		}
	}()
	return conn, nil
}

// answer reads a response's status line and waits for the server to end
// the connection: EOF, or a reset when the server closed it with trickled
// bytes still unread. Only a timeout means it stayed open.
func answer(conn net.Conn, within time.Duration) (status string, closed bool) {
	conn.SetReadDeadline(time.Now().Add(within))
	r := bufio.NewReader(conn)
	status, _ = r.ReadString('\n')
	_, err := io.Copy(io.Discard, r)
	return strings.TrimSpace(status), !errors.Is(err, os.ErrDeadlineExceeded)
}

func TestATrickledBodyIsCutWith408(t *testing.T) {
	srv := httptest.NewServer(server.New(server.Config{BodyTimeout: 300 * time.Millisecond}))
	defer srv.Close()
	start := time.Now()
	expectCut(t, srv)
	t.Logf("cut after %v (body timeout 300ms)", time.Since(start).Round(time.Millisecond))
}

// expectCut trickles a body to srv and expects a 408, the connection
// closed after it.
func expectCut(t *testing.T, srv *httptest.Server) {
	t.Helper()
	stop := make(chan struct{})
	defer close(stop)
	conn, err := trickle(t, srv.Listener.Addr().String(), 50*time.Millisecond, stop)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if status, closed := answer(conn, 20*time.Second); status != "HTTP/1.1 408 Request Timeout" || !closed {
		t.Fatalf("status %q, closed %v", status, closed)
	}
}

// Under a server whose ReadTimeout bounds the request within the body
// timeout (as serve runs it), the handler sets no deadline of its own and
// the server's cuts the body the same way.
func TestATrickledBodyIsCutByTheServersReadTimeout(t *testing.T) {
	srv := httptest.NewUnstartedServer(server.New(server.Config{BodyTimeout: time.Hour}))
	srv.Config.ReadTimeout = 300 * time.Millisecond
	srv.Start()
	defer srv.Close()
	expectCut(t, srv)
}

// At shutdown main ends the request contexts, then cuts every
// connection's reads; net/http may set a request's deadline after that
// cut. A handler that finds its context ended cuts the read again: a body
// that stalls is answered at once, not after its hour.
func TestABodyStalledOnceShutdownBeganIsCut(t *testing.T) {
	ended, cancel := context.WithCancelCause(context.Background())
	cancel(server.ErrShutdown)
	srv := httptest.NewUnstartedServer(server.New(server.Config{BodyTimeout: time.Hour}))
	srv.Config.BaseContext = func(net.Listener) context.Context { return ended }
	srv.Start()
	defer srv.Close()
	expectCut(t, srv)
}

// Many stalled bodies at once: each is cut, and /healthz answers all along.
func TestStalledBodiesDoNotStarveHealthz(t *testing.T) {
	const n = 200
	raiseFileLimit(t, 2*n+256)
	srv := httptest.NewServer(server.New(server.Config{BodyTimeout: time.Second}))
	defer srv.Close()
	stop := make(chan struct{})
	defer close(stop)
	conns := make([]net.Conn, n)
	for i := range conns {
		conn, err := trickle(t, srv.Listener.Addr().String(), time.Hour, stop)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conns[i] = conn
	}
	for range 20 {
		resp, err := http.Get(srv.URL + "/healthz")
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("healthz with %d stalled bodies: %v %v", n, resp, err)
		}
		resp.Body.Close()
	}
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for _, conn := range conns {
		wg.Go(func() {
			if status, closed := answer(conn, 20*time.Second); status != "HTTP/1.1 408 Request Timeout" || !closed {
				errs <- fmt.Sprintf("%q closed %v", status, closed)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// bigWeb is a web folder with a 32 MiB file: more than loopback's socket
// buffers hold, so a client that reads nothing stalls the writes.
func bigWeb(t testing.TB) (dir string, size int) {
	dir = t.TempDir()
	data := bytes.Repeat([]byte("0123456789abcdef"), 2<<20)
	if err := os.WriteFile(filepath.Join(dir, "big.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, len(data)
}

// logged waits for the request log line of path: the handler returned.
func logged(t *testing.T, buf *lockedBuffer, path string, within time.Duration) map[string]any {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		for _, l := range logLines(t, buf.snapshot()) {
			if l["path"] == path {
				return l
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no request line for %s within %v", path, within)
	return nil
}

func TestADownloadThatReadsNothingIsDropped(t *testing.T) {
	dir, size := bigWeb(t)
	var logs lockedBuffer
	srv := httptest.NewServer(server.New(server.Config{WebDir: dir, ProgressTimeout: 300 * time.Millisecond,
		Logger: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}))
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprint(conn, "GET /web/big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
	logged(t, &logs, "/web/big.bin", 20*time.Second) // the server gave up on it
	n, _ := io.Copy(io.Discard, conn)
	if n >= int64(size) {
		t.Errorf("the whole file arrived (%d bytes) although the client read nothing", n)
	}
}

// A reader that takes a long while, in virtual time, but never stops
// reading for the progress timeout gets every byte.
func TestASlowReaderStillGetsTheWholeDownload(t *testing.T) {
	dir, size := bigWeb(t)
	synctest.Test(t, func(t *testing.T) {
		client := pipeServer(t, server.New(server.Config{WebDir: dir, ProgressTimeout: 300 * time.Millisecond}))
		resp, err := client.Get("http://pipe/web/big.bin")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		total := 0
		buf := make([]byte, 256<<10)
		began := time.Now()
		for {
			n, err := io.ReadFull(resp.Body, buf)
			total += n
			if err != nil {
				break
			}
			time.Sleep(200 * time.Millisecond) // slow, but always reading within the timeout
		}
		if total != size {
			t.Errorf("read %d of %d bytes", total, size)
		}
		if took := time.Since(began); took < 10*time.Second {
			t.Errorf("the reader was not slow: %v", took)
		}
	})
}

func TestStreamsOverTheCapGet503(t *testing.T) {
	srv := httptest.NewServer(server.New(server.Config{MaxStreams: 2}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	open := func(i int) (*http.Response, *bufio.Reader) {
		resp, err := http.DefaultClient.Do(newRunRequest(ctx, srv.URL+"/api/agent-analysis", runBody(fmt.Sprint("t", i), "r", "slow")))
		if err != nil {
			t.Fatal(err)
		}
		return resp, bufio.NewReader(resp.Body)
	}
	var held []*bufio.Reader
	for i := range 2 {
		resp, r := open(i)
		defer resp.Body.Close()
		if line, _ := r.ReadString('\n'); !strings.Contains(line, "RUN_STARTED") {
			t.Fatalf("stream %d: %q", i, line)
		}
		held = append(held, r)
	}
	over, _ := open(2)
	body, _ := io.ReadAll(over.Body)
	over.Body.Close()
	if over.StatusCode != http.StatusServiceUnavailable || over.Header.Get("Retry-After") == "" ||
		over.Header.Get("Content-Type") != "application/problem+json" || !strings.Contains(string(body), "at most 2 streams") {
		t.Errorf("over the cap: %d %v %s", over.StatusCode, over.Header, body)
	}
	for i, r := range held {
		for line := ""; !strings.Contains(line, "STATE_SNAPSHOT"); {
			var err error
			if line, err = r.ReadString('\n'); err != nil {
				t.Fatalf("held stream %d broke: %v", i, err)
			}
		}
	}
}

// BenchmarkHealthzUnderStalledBodies holds 2,000 connections whose bodies
// never arrive and times /healthz meanwhile.
func BenchmarkHealthzUnderStalledBodies(b *testing.B) {
	const n = 2000
	raiseFileLimit(b, 2*n+256)
	srv := httptest.NewServer(server.New(server.Config{}))
	defer srv.Close()
	stop := make(chan struct{})
	defer close(stop)
	for range n {
		conn, err := trickle(b, srv.Listener.Addr().String(), time.Second, stop)
		if err != nil {
			b.Fatal(err)
		}
		defer conn.Close()
	}
	for b.Loop() {
		var took []time.Duration
		for range 500 {
			start := time.Now()
			resp, err := http.Get(srv.URL + "/healthz")
			if err != nil || resp.StatusCode != 200 {
				b.Fatalf("healthz: %v %v", resp, err)
			}
			resp.Body.Close()
			took = append(took, time.Since(start))
		}
		slices.Sort(took)
		b.ReportMetric(n, "stalled-bodies")
		b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "ms-p50")
		b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "ms-p99")
	}
}
