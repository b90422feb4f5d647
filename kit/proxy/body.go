package proxy

import (
	"io"
	"sync"
)

// clientBody is the client's request body on its way upstream. A read
// that fails is the client's doing (its body broke off, or was
// malformed), whatever the transport then makes of it: a failed round
// trip, or an answer cut short.
type clientBody struct {
	io.ReadCloser
	mu  sync.Mutex
	err error
}

func (b *clientBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		b.mu.Lock()
		if b.err == nil {
			b.err = err
		}
		b.mu.Unlock()
	}
	return n, err
}

// broken is why a read of the body failed, or nil; nil too for no body.
func (b *clientBody) broken() error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// teeBody is a request's body on its way to the upstream: it passes every
// read as it comes and keeps a copy, up to MaxInput, for the judge, who
// waits for done. The transport closes it when it is through with it,
// whole or not, maybe from another goroutine.
type teeBody struct {
	body io.ReadCloser
	done chan struct{}
	once sync.Once

	mu    sync.Mutex
	kept  []byte
	over  bool  // more than MaxInput came
	whole bool  // it was read to its end
	err   error // why it was not, when a read failed
}

func newTeeBody(body io.ReadCloser) *teeBody {
	return &teeBody{body: body, done: make(chan struct{})}
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.body.Read(p)
	t.mu.Lock()
	select {
	case <-t.done: // closed meanwhile: the judge may be reading kept
	default:
		if len(t.kept)+n > MaxInput {
			t.over, t.kept = true, nil
		} else if !t.over {
			t.kept = append(t.kept, p[:n]...)
		}
	}
	t.mu.Unlock()
	switch {
	case err == io.EOF:
		t.finish(true, nil)
	case err != nil:
		t.finish(false, err)
	}
	return n, err
}

func (t *teeBody) Close() error {
	t.finish(false, nil)
	return t.body.Close()
}

func (t *teeBody) finish(whole bool, err error) {
	t.once.Do(func() {
		t.mu.Lock()
		t.whole, t.err = whole, err
		t.mu.Unlock()
		close(t.done)
	})
}

// result is the body kept, once done: the bytes, whether they are the
// whole body, and if not, why.
func (t *teeBody) result() (data []byte, whole, over bool, err error) {
	<-t.done
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.kept, t.whole, t.over, t.err
}
