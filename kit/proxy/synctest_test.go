package proxy_test

import (
	"bytes"
	"io"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-analysis/agent-analysis/internal/pipenet"
	"github.com/agent-analysis/agent-analysis/kit/proxy"
	"github.com/agent-analysis/agent-analysis/kit/rules"
)

// Inside a synctest bubble the clock is virtual, so silences and write
// timeouts are exact; httptest.NewServer would hang there (its listener
// is real), so the client, the proxy and the upstream talk over in-memory
// pipes.

// pipes serves h over in-memory pipes: DialContext reaches it, whatever
// the address.
type pipes struct {
	*pipenet.Listener
	srv *http.Server
}

func servePipes(h http.Handler) *pipes {
	p := &pipes{Listener: pipenet.Listen(), srv: &http.Server{Handler: h}}
	go p.srv.Serve(p.Listener)
	return p
}

// inBubble is an upstream handler behind a proxy, all over pipes; the
// client reaches the proxy.
func inBubble(t *testing.T, handle http.HandlerFunc, cfg proxy.Config) (*http.Client, chan proxy.Run) {
	up := servePipes(handle)
	upTransport := &http.Transport{DialContext: up.DialContext, DisableCompression: true}
	runs := make(chan proxy.Run, 8)
	cfg.Upstream, cfg.Transport = "http://agent.test/agui", upTransport
	cfg.Report = func(r proxy.Run) { runs <- r }
	p, err := proxy.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	front := servePipes(p)
	clientTransport := &http.Transport{DialContext: front.DialContext}
	t.Cleanup(func() {
		clientTransport.CloseIdleConnections()
		front.srv.Close()
		p.Close()
		up.srv.Close()
		upTransport.CloseIdleConnections()
	})
	return &http.Client{Transport: clientTransport}, runs
}

// An upstream silent for a minute mid-stream, then trickling: the bytes
// pass as they come, and the report measures the silence exactly.
func TestSilenceIsMeasured(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const finished = "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n"
		c, runs := inBubble(t, func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			time.Sleep(2 * time.Second) // the answer comes late
			sse(w)
			io.WriteString(w, started)
			w.(http.Flusher).Flush()
			time.Sleep(time.Minute)
			for i := range len(finished) {
				io.WriteString(w, finished[i:i+1])
				w.(http.Flusher).Flush()
				time.Sleep(time.Second)
			}
		}, proxy.Config{})
		began := time.Now()
		resp, err := c.Post("http://proxy.test/", "application/json", bytes.NewReader(input))
		if err != nil {
			t.Fatal(err)
		}
		if waited := time.Since(began); waited != 2*time.Second {
			t.Errorf("the headers came after %s, not as the upstream sent them", waited)
		}
		first := make([]byte, len(started))
		if _, err := io.ReadFull(resp.Body, first); err != nil || string(first) != started {
			t.Fatalf("%q %v", first, err)
		}
		if waited := time.Since(began); waited != 2*time.Second {
			t.Errorf("the first event came after %s: it waited for more", waited)
		}
		rest, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(rest) != finished {
			t.Errorf("%q", rest)
		}
		run := <-runs
		// The answer, the minute's silence, then a second after each byte.
		took := 2*time.Second + time.Minute + time.Duration(len(finished))*time.Second
		if !run.OK() || run.LongestGap != time.Minute || run.Answered != 2*time.Second || run.Took != took {
			t.Errorf("gap %s, answered %s, took %s: %v", run.LongestGap, run.Answered, run.Took, run.Lines(true))
		}
	})
}

// A client that reads nothing is dropped after exactly the write timeout,
// and the upstream's request cancelled.
func TestStalledClientIsDroppedOnTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cancelled := make(chan time.Time, 1)
		c, runs := inBubble(t, func(w http.ResponseWriter, r *http.Request) {
			sse(w)
			for {
				if _, err := io.WriteString(w, started); err != nil {
					break
				}
				w.(http.Flusher).Flush()
			}
			<-r.Context().Done()
			cancelled <- time.Now()
		}, proxy.Config{WriteTimeout: 10 * time.Second})
		began := time.Now()
		resp, err := c.Post("http://proxy.test/", "application/json", bytes.NewReader(input))
		if err != nil {
			t.Fatal(err)
		}
		// The client holds the answer and reads nothing.
		at := <-cancelled
		run := <-runs
		resp.Body.Close()
		if len(run.Failures) != 1 || run.Failures[0].Rule != rules.Stalled {
			t.Errorf("%v", run.Lines(true))
		}
		if took := at.Sub(began); took < 10*time.Second || took > 11*time.Second {
			t.Errorf("the upstream was cancelled after %s", took)
		}
	})
}

// An agent that goes quiet for longer than -write-timeout after its last
// event, and then ends the stream, ends the client's whole: the end of the
// chunked body gets a deadline of its own, not the last event's.
func TestQuietBeforeTheEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		stream := started + "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n"
		c, runs := inBubble(t, func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			sse(w)
			io.WriteString(w, stream)
			w.(http.Flusher).Flush()
			time.Sleep(time.Minute) // the proxy's last deadline goes by
		}, proxy.Config{WriteTimeout: 10 * time.Second})
		resp, err := c.Post("http://proxy.test/", "application/json", bytes.NewReader(input))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || string(got) != stream {
			t.Errorf("%q, %v", got, err)
		}
		if run := <-runs; !run.OK() {
			t.Errorf("%v", run.Lines(true))
		}
	})
}
