package server_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/server"
)

var update = flag.Bool("update", false, "rewrite golden files")

// want is each scenario's exact sequence, as the spec's fixtures section
// states it, for thread "t1" and run "r1".
var want = map[string][]string{
	"normal": {
		"RUN_STARTED t1 r1 1.0",
		"STATE_SNAPSHOT api=60 checkout=92 auth=35",
		"STATE_DELTA replace /services/0/latency 145",
		"STATE_SNAPSHOT auth=35 api=145 checkout=92",
		`STATE_DELTA add /services/- {"id":"search","name":"Search","series":"Platform","volume":410,"latency":71}`,
		"RUN_FINISHED t1 r1",
	},
	"invalid": {
		"RUN_STARTED t1 r1 1.0",
		"STATE_SNAPSHOT api=60 checkout=92 auth=35",
		"STATE_DELTA replace /services/0/latency 145",
		"STATE_DELTA replace /services/1/latency 999 replace /services/7/latency 1",
		"STATE_DELTA replace /services/2/latency 40",
		"RUN_FINISHED t1 r1",
	},
	"slow": {
		"RUN_STARTED t1 r1 1.0",
		"STATE_SNAPSHOT api=60 checkout=92 auth=35",
		"STATE_DELTA replace /services/0/latency 145",
		`STATE_DELTA add /services/- {"id":"search","name":"Search","series":"Platform","volume":410,"latency":71}`,
		"RUN_FINISHED t1 r1",
	},
}

func TestScenarioStreamsAreExact(t *testing.T) {
	srv := httptest.NewServer(server.New(server.Config{NoDelay: true}))
	defer srv.Close()

	for scenario, sequence := range want {
		t.Run(scenario, func(t *testing.T) {
			before := time.Now().Truncate(time.Second)
			resp, err := http.DefaultClient.Do(newRunRequest(context.Background(), srv.URL+"/api/agent-analysis", runBody("t1", "r1", scenario)))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d", resp.StatusCode)
			}
			if date, err := http.ParseTime(resp.Header.Get("Date")); err != nil || date.Before(before) || date.After(time.Now()) {
				t.Errorf("Date %q (%v): not the time of the answer", resp.Header.Get("Date"), err)
			}
			for header, value := range map[string]string{
				"Content-Type":           "text/event-stream",
				"Cache-Control":          "no-cache",
				"X-Content-Type-Options": "nosniff",
				"X-Accel-Buffering":      "no",
				// Never a document: nothing may load or frame.
				"Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
				"Referrer-Policy":         "",
			} {
				if got := resp.Header.Get(header); got != value {
					t.Errorf("%s = %q, want %q", header, got, value)
				}
			}
			raw, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}

			// Read one byte at a time: every frame is split across reads.
			got, err := describeStream(iotest.OneByteReader(bytes.NewReader(raw)))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, sequence) {
				t.Errorf("events:\n%s\nwant:\n%s", lines(got), lines(sequence))
			}

			checkGolden(t, scenario, raw)
		})
	}
}

// checkGolden compares a stream with testdata/<scenario>.sse, or writes it
// with -update.
func checkGolden(t *testing.T, scenario string, raw []byte) {
	t.Helper()
	golden := filepath.Join("testdata", scenario+".sse")
	if *update {
		os.WriteFile(golden, raw, 0o644)
	}
	if want, err := os.ReadFile(golden); err != nil || string(want) != string(raw) {
		t.Errorf("stream differs from %s (err %v):\n%s", golden, err, raw)
	}
}

// Every script, faults included, streams the same bytes on every run:
// its events as written, the requested run's ids the request's, one SSE
// frame each.
func TestEveryScriptMatchesItsGoldenStream(t *testing.T) {
	srv := httptest.NewServer(server.New(server.Config{NoDelay: true}))
	defer srv.Close()
	for _, scenario := range fixtures.Names() {
		t.Run(scenario, func(t *testing.T) {
			resp, err := http.DefaultClient.Do(newRunRequest(context.Background(), srv.URL+"/api/agent-analysis", runBody("t1", "r1", scenario)))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			raw, err := io.ReadAll(resp.Body)
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("status %d, %v", resp.StatusCode, err)
			}
			script, _ := fixtures.Lookup(scenario)
			if frames := strings.Count(string(raw), "\n\n"); frames != len(script.Frames) {
				t.Errorf("%d frames written for the script's %d", frames, len(script.Frames))
			}
			got, err := readEvents(iotest.OneByteReader(bytes.NewReader(raw)))
			if err != nil {
				t.Fatal(err)
			}
			var sent [][]byte
			for _, st := range script.ForRequest("t1", "r1") {
				if st.Event != nil {
					sent = append(sent, st.Event)
				}
			}
			if !slices.EqualFunc(got, sent, bytes.Equal) {
				t.Errorf("events differ from the script's")
			}
			checkGolden(t, scenario, raw)
		})
	}
}

func TestConcurrentRequestsAreIndependent(t *testing.T) {
	srv := httptest.NewServer(server.New(server.Config{NoDelay: true}))
	defer srv.Close()

	scenarios := []string{"normal", "invalid", "slow"}
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := range 50 {
		scenario := scenarios[i%len(scenarios)]
		thread, run := fmt.Sprintf("thread-%d", i), fmt.Sprintf("run-%d", i)
		wg.Go(func() {
			resp, err := http.DefaultClient.Do(newRunRequest(context.Background(), srv.URL+"/api/agent-analysis", runBody(thread, run, scenario)))
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			got, err := describeStream(resp.Body)
			if err != nil {
				errs <- err
				return
			}
			expected := slices.Clone(want[scenario])
			expected[0] = "RUN_STARTED " + thread + " " + run + " 1.0"
			expected[len(expected)-1] = "RUN_FINISHED " + thread + " " + run
			if !slices.Equal(got, expected) {
				errs <- fmt.Errorf("request %d (%s):\n%s\nwant:\n%s", i, scenario, lines(got), lines(expected))
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
