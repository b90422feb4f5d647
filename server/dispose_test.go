package server_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/server"
)

// disposals records what a server's OnDispose hook is told.
type disposals struct {
	mu  sync.Mutex
	got []server.Disposal
}

func (d *disposals) record(x server.Disposal) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.got = append(d.got, x)
}

func (d *disposals) list() []server.Disposal {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]server.Disposal(nil), d.got...)
}

// startStream runs one request in the bubble; done closes when the handler
// returns.
func startStream(ctx context.Context, h *disposals, scenario string) (rec *streamRecorder, done chan struct{}) {
	handler := server.New(server.Config{OnDispose: h.record})
	req := httptest.NewRequestWithContext(ctx, "POST", "/api/agent-analysis", strings.NewReader(runBody("t", "r", scenario)))
	req.Header.Set("Content-Type", "application/json")
	rec, done = newStreamRecorder(), make(chan struct{})
	go func() {
		defer close(done)
		handler.ServeHTTP(rec, req)
	}()
	return rec, done
}

// elapsedBefore is the fixture time at which event k is written.
func elapsedBefore(steps []fixtures.Step, k int) time.Duration {
	var d time.Duration
	for _, s := range steps[:k+1] {
		d += s.After
	}
	return d
}

func TestCancelMidStreamDisposesOnceAndWritesNothingAfter(t *testing.T) {
	for _, scenario := range fixtures.Scenarios() {
		script, _ := fixtures.Lookup(scenario)
		for sent := range len(script.Steps) {
			if sent > 0 && script.Steps[sent].After == 0 {
				continue // goes out with the step before: no moment between them to cut at
			}
			for _, cause := range []error{nil, server.ErrShutdown} {
				wantEnd := server.EndClientGone
				if cause != nil {
					wantEnd = server.EndShutdown
				}
				t.Run(fmt.Sprintf("%s/after %d/%s", scenario, sent, wantEnd), func(t *testing.T) {
					synctest.Test(t, func(t *testing.T) {
						ctx, cancel := context.WithCancelCause(t.Context())
						defer cancel(nil)
						var obs disposals
						if sent == 0 {
							cancel(cause) // gone before the first event
						}
						rec, done := startStream(ctx, &obs, scenario)
						if sent > 0 {
							time.Sleep(elapsedBefore(script.Steps, sent-1))
							synctest.Wait()
							cancel(cause)
						}
						synctest.Wait()

						select {
						case <-done:
						default:
							t.Fatal("handler still running after cancel")
						}
						check := func() {
							t.Helper()
							got := obs.list()
							if len(got) != 1 {
								t.Fatalf("disposed %d times, want once: %+v", len(got), got)
							}
							if got[0].End != wantEnd || got[0].Sent != sent || got[0].Scenario != scenario {
								t.Errorf("disposal %+v, want end %s after %d events", got[0], wantEnd, sent)
							}
							if _, body := rec.snapshot(); strings.Count(body, "\n\n") != sent {
								t.Errorf("%d frames written, want %d:\n%s", strings.Count(body, "\n\n"), sent, body)
							}
						}
						check()
						_, before := rec.snapshot()

						// A timer left running would fire within a virtual day.
						time.Sleep(24 * time.Hour)
						synctest.Wait()
						check()
						if _, after := rec.snapshot(); after != before {
							t.Errorf("written after disposal:\n%s", after[len(before):])
						}
					})
				})
			}
		}
	}
}

func TestCompletedStreamDisposesOnce(t *testing.T) {
	for _, scenario := range fixtures.Scenarios() {
		script, _ := fixtures.Lookup(scenario)
		t.Run(scenario, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var obs disposals
				start := time.Now()
				rec, done := startStream(t.Context(), &obs, scenario)
				<-done
				if took, want := time.Since(start), elapsedBefore(script.Steps, len(script.Steps)-1); took != want {
					t.Errorf("stream took %v of fixture time, want %v", took, want)
				}
				time.Sleep(24 * time.Hour)
				synctest.Wait()
				got := obs.list()
				if len(got) != 1 || got[0].End != server.EndCompleted || got[0].Sent != len(script.Steps) {
					t.Fatalf("disposals %+v", got)
				}
				if status, body := rec.snapshot(); status != 200 || strings.Count(body, "\n\n") != len(script.Steps) {
					t.Errorf("status %d, body:\n%s", status, body)
				}
				// Each event waits for its own moment: all but the last are
				// flushed before the next wait; net/http flushes the last one
				// with the end of the body as the handler returns.
				waits := 0
				for _, step := range script.Steps {
					if step.After > 0 {
						waits++
					}
				}
				if rec.flushes != waits {
					t.Errorf("%d flushes for %d waits, want one before each wait", rec.flushes, waits)
				}
			})
		})
	}
}
