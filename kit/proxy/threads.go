package proxy

import (
	"container/list"
	"sync"

	"github.com/agent-analysis/agent-analysis/agui"
)

// runRef is a run as the next run of its thread sees it: what it left
// open, once judged.
type runRef struct {
	thread     string
	streamDone chan struct{} // closed when its stream has ended
	done       chan struct{} // closed when it has been judged; the fields below are set then
	runID      string
	judged     bool // its stream was judged to its end and broke no rule
	open       bool // it ended interrupted: pending is what it left open
	pending    agui.Pending
}

// threads is the last run of each of the most recently used threads, at
// most max of them: the memory a resume is checked against, bounded.
type threads struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *runRef, the most recent first
	index map[string]*list.Element
}

func newThreads(max int) *threads {
	return &threads{max: max, order: list.New(), index: map[string]*list.Element{}}
}

// begin makes ref its thread's last run, and gives the one it follows,
// or nil.
func (t *threads) begin(thread string, ref *runRef) *runRef {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e, ok := t.index[thread]; ok {
		prev := e.Value.(*runRef)
		e.Value = ref
		t.order.MoveToFront(e)
		return prev
	}
	t.index[thread] = t.order.PushFront(ref)
	for t.order.Len() > t.max {
		oldest := t.order.Back()
		t.order.Remove(oldest)
		delete(t.index, oldest.Value.(*runRef).thread)
	}
	return nil
}
