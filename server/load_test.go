package server_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-analysis/agent-analysis/server"
)

// load is what holding n slow streams over loopback cost.
type load struct {
	streams          int
	goroutines       float64 // per stream, both ends
	serverGoroutines float64 // per stream, server side only
	heapKiB          float64 // per stream, both ends
	hold, release    time.Duration
}

// holdSlowStreams opens n slow streams over loopback, waits until each has
// its snapshot (the next event is two seconds away), measures, cancels
// every client, and checks the server's goroutines return to where they
// started.
func holdSlowStreams(tb testing.TB, n int) load {
	raiseFileLimit(tb, 2*n+256)
	srv := httptest.NewServer(server.New(server.Config{}))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: -1, DisableKeepAlives: true}}
	defer client.CloseIdleConnections()

	runtime.GC()
	baseGoroutines := runtime.NumGoroutine()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var held, done sync.WaitGroup
	errs := make(chan error, n)
	start := time.Now()
	for i := range n {
		held.Add(1)
		done.Go(func() {
			if err := holdOne(ctx, client, srv.URL, i, held.Done); err != nil {
				errs <- err
			}
		})
	}
	if !waitGroupWithin(&held, 30*time.Second) {
		tb.Fatalf("not all %d streams got their snapshot", n)
	}
	l := load{streams: n, hold: time.Since(start)}

	var peak runtime.MemStats
	runtime.ReadMemStats(&peak)
	serverSide := countGoroutines("net/http.(*conn).serve", "net/http.(*connReader).backgroundRead")
	l.goroutines = float64(runtime.NumGoroutine()-baseGoroutines) / float64(n)
	l.serverGoroutines = float64(serverSide) / float64(n)
	l.heapKiB = (float64(peak.HeapInuse) - float64(before.HeapInuse)) / 1024 / float64(n)

	release := time.Now()
	cancel()
	done.Wait()
	close(errs)
	for err := range errs {
		tb.Fatal(err)
	}
	// Every handler must end, its timer stopped, once its client has gone:
	// the process returns to its goroutine count before the load.
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > baseGoroutines {
		if time.Now().After(deadline) {
			tb.Fatalf("%d goroutines after every client cancelled, %d before (%d serving)",
				runtime.NumGoroutine(), baseGoroutines, countGoroutines("net/http.(*conn).serve"))
		}
		time.Sleep(5 * time.Millisecond)
	}
	l.release = time.Since(release)
	return l
}

// holdOne posts one slow run and reads until its snapshot, then waits for
// the end of ctx.
func holdOne(ctx context.Context, client *http.Client, url string, i int, snapshotted func()) error {
	req := newRunRequest(ctx, url+"/api/agent-analysis", runBody(fmt.Sprintf("t%d", i), "r", "slow"))
	resp, err := client.Do(req)
	if err != nil {
		snapshotted()
		return err
	}
	defer resp.Body.Close()
	lines := bufio.NewReader(resp.Body)
	for seen := 0; seen < 2; {
		line, err := lines.ReadString('\n')
		if err != nil {
			snapshotted()
			return fmt.Errorf("stream %d: %v after %d events", i, err, seen)
		}
		if strings.HasPrefix(line, "data: ") {
			seen++
		}
	}
	snapshotted()
	<-ctx.Done()
	return nil
}

func waitGroupWithin(wg *sync.WaitGroup, d time.Duration) bool {
	ok := make(chan struct{})
	go func() { wg.Wait(); close(ok) }()
	select {
	case <-ok:
		return true
	case <-time.After(d):
		return false
	}
}

// countGoroutines counts goroutines whose stack holds any of the functions.
func countGoroutines(funcs ...string) int {
	buf := make([]byte, 64<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		for _, f := range funcs {
			if strings.Contains(g, f+"(") {
				n++
				break
			}
		}
	}
	return n
}

// TestHeldStreamsAllEnd: 200 slow streams over loopback, then every
// client cancels; every server goroutine must end.
func TestHeldStreamsAllEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("holds 200 connections")
	}
	l := holdSlowStreams(t, 200)
	if l.serverGoroutines > 2.05 {
		t.Errorf("%.2f server goroutines per stream, want 2 (the connection and its reader)", l.serverGoroutines)
	}
}

// BenchmarkHeldSlowStreams holds 2,000 slow streams at once.
func BenchmarkHeldSlowStreams(b *testing.B) {
	for b.Loop() {
		l := holdSlowStreams(b, 2000)
		b.ReportMetric(float64(l.streams), "streams")
		b.ReportMetric(l.goroutines, "goroutines/stream")
		b.ReportMetric(l.serverGoroutines, "server-goroutines/stream")
		b.ReportMetric(l.heapKiB, "heap-KiB/stream")
		b.ReportMetric(float64(l.hold.Milliseconds()), "ms-to-hold")
		b.ReportMetric(float64(l.release.Milliseconds()), "ms-to-release")
	}
}
