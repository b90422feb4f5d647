package inspect

import (
	"sync/atomic"

	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
)

// subscriptionBuffer bounds the updates waiting for one page: a page
// that falls further behind loses them, and is told to read everything
// again, rather than hold up the runs.
const subscriptionBuffer = 4096

// Subscription is one page's feed of updates.
type Subscription struct {
	C    chan runs.Update
	lost atomic.Bool // updates were dropped: the page must resync
}

// Subscribe starts a feed of every change; Unsubscribe ends it.
func (s *Store) Subscribe() *Subscription {
	sub := &Subscription{C: make(chan runs.Update, subscriptionBuffer)}
	s.mu.Lock()
	s.subs[sub] = struct{}{}
	s.mu.Unlock()
	return sub
}

// Unsubscribe ends a feed.
func (s *Store) Unsubscribe(sub *Subscription) {
	s.mu.Lock()
	delete(s.subs, sub)
	s.mu.Unlock()
}

// Lost reports, once, that updates were dropped since it last said so.
func (sub *Subscription) Lost() bool { return sub.lost.Swap(false) }

// publish hands an update to every subscriber that has room; one that has
// none loses it, and learns so (Lost). Called with s.mu held.
func (s *Store) publish(u runs.Update) {
	if u.Run != nil {
		r := *u.Run // the run as it is now, not as it will be
		u.Run = &r
	}
	for sub := range s.subs {
		select {
		case sub.C <- u:
		default:
			sub.lost.Store(true)
		}
	}
}
