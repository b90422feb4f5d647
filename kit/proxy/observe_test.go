package proxy_test

import (
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/proxy"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// told is an Observer that keeps the runs it was told of, in order; it
// takes its time over each, as an inspector busy with another run may.
type told struct {
	mu   sync.Mutex
	runs []string
}

func (o *told) Begin(b proxy.Begin) proxy.RunObserver {
	time.Sleep(20 * time.Millisecond)
	o.mu.Lock()
	defer o.mu.Unlock()
	o.runs = append(o.runs, b.RunID)
	return quiet{}
}

func (o *told) seen() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.runs)
}

type quiet struct{}

func (quiet) Frame(time.Duration, script.Frame, agui.Judgement) {}
func (quiet) End(proxy.Run)                                     {}

// A client that reads each run to its end before it sends the next finds
// the observer told of each before its stream ended: the inspector numbers
// runs in the order they came, however slow it is to take each.
func TestTheObserverIsToldOfARunBeforeItsStreamEnds(t *testing.T) {
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w)
		fmt.Fprint(w, started)
	})
	o := &told{}
	th := start(t, proxy.Config{Upstream: up, Observer: o})
	c := client(t)
	var want []string
	for i := range 3 {
		run := fmt.Sprintf("r%d", i)
		post(t, c, th.url, []byte(`{"threadId":"t1","runId":"`+run+`","messages":[]}`))
		want = append(want, run)
		if got := o.seen(); !slices.Equal(got, want) {
			t.Fatalf("after run %s's stream ended the observer was told of %v", run, got)
		}
	}
}
