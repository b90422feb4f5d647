package app

import (
	"context"
	"sync"
)

// Effects runs the Cmds Update returns: it is the edge of the program,
// where connections open and close. It owns one cancel func per open
// connection.
type Effects struct {
	stream Stream
	send   func(Msg)
	mu     sync.Mutex
	open   map[Conn]context.CancelFunc
	wg     sync.WaitGroup
}

// NewEffects runs streams with s and delivers their Msgs through send.
func NewEffects(s Stream, send func(Msg)) *Effects {
	return &Effects{stream: s, send: send, open: make(map[Conn]context.CancelFunc)}
}

// Run performs a Cmd. A nil Cmd does nothing.
func (e *Effects) Run(cmd Cmd) {
	switch cmd := cmd.(type) {
	case Batch:
		for _, c := range cmd {
			e.Run(c)
		}
	case StartStream:
		ctx, cancel := context.WithCancel(context.Background())
		e.mu.Lock()
		e.open[cmd.Run.Conn] = cancel
		e.mu.Unlock()
		e.wg.Go(func() { e.stream.Run(ctx, cmd.Run, e.send) })
	case AbortStream:
		e.mu.Lock()
		cancel := e.open[cmd.Conn]
		delete(e.open, cmd.Conn)
		e.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	}
}

// Open reports how many connections are open.
func (e *Effects) Open() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.open)
}

// Close aborts every open connection: for page unload and component
// dismount. It does not wait: a stream may be delivering to the very
// goroutine that calls Close.
func (e *Effects) Close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for conn, cancel := range e.open {
		cancel()
		delete(e.open, conn)
	}
}

// Wait blocks until every stream goroutine has returned.
func (e *Effects) Wait() { e.wg.Wait() }
