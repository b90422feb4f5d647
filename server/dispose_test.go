package server_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/kit/script"
	"github.com/agent-analysis/agent-analysis/server"
	"github.com/agent-analysis/agent-analysis/server/library"
)

// disposals records what a server's disposal hook is told.
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
	return startStreamAccepting(ctx, h, scenario, "")
}

// startStreamAccepting is startStream with an Accept header.
func startStreamAccepting(ctx context.Context, h *disposals, scenario, accept string) (rec *streamRecorder, done chan struct{}) {
	handler := server.New(server.WithDisposals(server.Config{}, h.record))
	req := httptest.NewRequestWithContext(ctx, "POST", "/api/agent-analysis", strings.NewReader(runBody("t", "r", scenario)))
	req.Header.Set("Content-Type", "application/json")
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	rec, done = newStreamRecorder(), make(chan struct{})
	go func() {
		defer close(done)
		handler.ServeHTTP(rec, req)
	}()
	return rec, done
}

// elapsedBefore is the fixture time at which event k is written.
func elapsedBefore(frames []script.Frame, k int) time.Duration {
	var d time.Duration
	for _, s := range frames[:k+1] {
		d += s.After
	}
	return d
}

// A stream cut at any point, by the client going or the server shutting
// down, disposes its timer and cursor once and writes nothing after. At
// shutdown the run it was playing is closed first (events/lifecycle,
// "Cancelled runs"): RUN_FINISHED with the cancelled outcome, RUN_ERROR
// before any run began, nothing after a run already ended.
func TestCancelMidStreamDisposesOnceAndWritesNothingAfter(t *testing.T) {
	for _, scenario := range fixtures.Names() {
		script, _ := fixtures.Lookup(scenario)
		for sent := range len(script.Frames) {
			if sent > 0 && script.Frames[sent].After == 0 {
				continue // goes out with the frame before: no moment between them to cut at
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
							time.Sleep(elapsedBefore(script.Frames, sent-1))
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
							written := sent
							if got[0].Closing != "" {
								written++
							}
							if got[0].End != wantEnd || got[0].Sent != written || got[0].Scenario != scenario {
								t.Errorf("disposal %+v, want end %s after %d events", got[0], wantEnd, written)
							}
							_, body := rec.snapshot()
							if strings.Count(body, "\n\n") != written {
								t.Errorf("%d frames written, want %d:\n%s", strings.Count(body, "\n\n"), written, body)
							}
							if wantEnd == server.EndShutdown {
								checkClosing(t, scenario, script.ForRequest("t", "r")[:sent], got[0].Closing, body)
							} else if got[0].Closing != "" {
								t.Errorf("closed the run for a client that went: %s", got[0].Closing)
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

// checkClosing: at shutdown, no event yet is closed with RUN_ERROR (the
// run failed before it began), an active run with a terminal event,
// anything else with nothing; a valid scenario's cut stream is then valid
// AG-UI 1.0 to the demo's engine, every run ended.
func checkClosing(t *testing.T, scenario string, sent []script.Frame, closing, body string) {
	t.Helper()
	events, _ := readEvents(strings.NewReader(body))
	active := false
	for _, st := range sent {
		switch st.Type {
		case "RUN_STARTED":
			active = true
		case "RUN_FINISHED", "RUN_ERROR":
			active = false
		}
	}
	switch {
	case len(events) == 1 && len(sent) == 0:
		if closing != "RUN_ERROR" {
			t.Fatalf("closed an empty stream with %q", closing)
		}
	case !active && closing != "":
		t.Fatalf("closed with %s where no run was active", closing)
	case active && closing == "":
		t.Fatal("left an active run open")
	}
	if want, ok := closings[fmt.Sprintf("%s/%d", scenario, len(sent))]; ok && closing != want {
		t.Errorf("closed with %q, want %q", closing, want)
	}
	if closing == "RUN_FINISHED" && !strings.Contains(string(events[len(events)-1]), `"outcome":{"type":"cancelled"}`) {
		t.Errorf("the closing RUN_FINISHED: %s", events[len(events)-1])
	}
	if s, _ := fixtures.Lookup(scenario); s.Group == fixtures.Demo && scenario != "invalid" {
		if v, truncated, _ := judge(events, "t", "r"); v != nil || truncated != "" {
			t.Errorf("the cut stream is not valid 1.0: %v %q", v, truncated)
		}
	}
}

// closings are the closing events some cuts need, by scenario and events
// sent: a message open makes RUN_ERROR, as the run cannot close in order.
var closings = map[string]string{
	"normal/0":                 "RUN_ERROR",
	"normal/3":                 "RUN_FINISHED",
	"open-message-at-finish/4": "RUN_ERROR",
	"open-message-at-finish/2": "RUN_FINISHED",
	"two-runs/4":               "",
	"first-not-run-started/1":  "",
}

func TestCompletedStreamDisposesOnce(t *testing.T) {
	for _, scenario := range fixtures.Names() {
		script, _ := fixtures.Lookup(scenario)
		t.Run(scenario, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var obs disposals
				start := time.Now()
				rec, done := startStream(t.Context(), &obs, scenario)
				<-done
				if took, want := time.Since(start), elapsedBefore(script.Frames, len(script.Frames)-1); took != want {
					t.Errorf("stream took %v of fixture time, want %v", took, want)
				}
				time.Sleep(24 * time.Hour)
				synctest.Wait()
				got := obs.list()
				if len(got) != 1 || got[0].End != server.EndCompleted || got[0].Sent != len(script.Frames) {
					t.Fatalf("disposals %+v", got)
				}
				if status, body := rec.snapshot(); status != 200 || strings.Count(body, "\n\n") != len(script.Frames) {
					t.Errorf("status %d, body:\n%s", status, body)
				}
				// Each event waits for its own moment: all but the last are
				// flushed before the next wait; net/http flushes the last one
				// with the end of the body as the handler returns.
				waits := 0
				for _, f := range script.Frames {
					if f.After > 0 {
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

// A binary stream has the SSE stream's timers and disposal: cut between
// two events, by the client or a shutdown, it disposes once and writes
// nothing after; a shutdown closes its run with a binary RUN_FINISHED.
func TestABinaryStreamDisposesAsSSEDoes(t *testing.T) {
	for _, cause := range []error{nil, server.ErrShutdown} {
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(t.Context())
			defer cancel(nil)
			var obs disposals
			slow, _ := fixtures.Lookup("slow")
			rec, done := startStreamAccepting(ctx, &obs, "slow", "application/vnd.ag-ui.event+proto")
			time.Sleep(elapsedBefore(slow.Frames, 1))
			synctest.Wait()
			cancel(cause)
			synctest.Wait()
			<-done
			got := obs.list()
			written := 2
			if cause != nil {
				written = 3 // and the RUN_FINISHED that closes the run
			}
			if len(got) != 1 || got[0].Sent != written {
				t.Fatalf("disposals %+v, want one after %d frames", got, written)
			}
			_, body := rec.snapshot()
			events := readBinary(t, []byte(body))
			if len(events) != written {
				t.Fatalf("%d binary events, want %d", len(events), written)
			}
			if cause != nil && !strings.Contains(string(events[2]), `"cancelled"`) {
				t.Errorf("closed with %s", events[2])
			}
			time.Sleep(24 * time.Hour)
			synctest.Wait()
			if _, after := rec.snapshot(); after != body || len(obs.list()) != 1 {
				t.Errorf("written or disposed after disposal")
			}
		})
	}
}

// A binary stream writes no comments, so a cut one is closed from the
// script's frames it passed, not from as many frames as it wrote: a
// comment before the cut neither leaves a closed message open (which
// would close the run with RUN_ERROR) nor reopens a finished run (which
// would finish it twice).
func TestABinaryStreamCutAfterCommentsClosesWhatIsOpen(t *testing.T) {
	const run = `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`
	const finished = `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`
	for _, tt := range []struct {
		name, stream string
		closing      string // the event that closes the cut stream, "" for none
	}{
		{"messages-closed", `[{"event":` + run + `},{"comment":"ka"},{"event":{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}},{"event":{"type":"TEXT_MESSAGE_END","messageId":"m"}},{"afterMs":60000,"event":` + finished + `}]`, "RUN_FINISHED"},
		{"run-finished", `[{"event":` + run + `},{"comment":"ka"},{"event":` + finished + `},{"afterMs":60000,"comment":"late"}]`, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "cut.json"), []byte(tt.stream), 0o644); err != nil {
				t.Fatal(err)
			}
			lib, err := library.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancelCause(t.Context())
				defer cancel(nil)
				var obs disposals
				handler := server.New(server.WithDisposals(server.Config{Scripts: lib}, obs.record))
				req := httptest.NewRequestWithContext(ctx, "POST", "/api/agent-analysis", strings.NewReader(runBody("t", "r", "cut")))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/vnd.ag-ui.event+proto")
				rec, done := newStreamRecorder(), make(chan struct{})
				go func() {
					defer close(done)
					handler.ServeHTTP(rec, req)
				}()
				synctest.Wait() // at the wait
				cancel(server.ErrShutdown)
				<-done
				got := obs.list()
				if len(got) != 1 || got[0].End != server.EndShutdown {
					t.Fatalf("disposals %+v", got)
				}
				_, body := rec.snapshot()
				events := readBinary(t, []byte(body))
				if got[0].Closing != tt.closing {
					t.Errorf("closed with %q, want %q: %q", got[0].Closing, tt.closing, events)
				}
				if tt.closing != "" && !strings.Contains(string(events[len(events)-1]), `"cancelled"`) {
					t.Errorf("the closing event: %s", events[len(events)-1])
				}
			})
		})
	}
}
