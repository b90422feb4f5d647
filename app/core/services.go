package core

import (
	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// Services is the demo's state as the AG-UI engine holds it: a Wire,
// decoded exactly and checked whole by every snapshot and patch. The
// engine replaces and patches it (agui.State); what it refuses, the
// demo fails the run over (1.0 lets a consumer choose).
type Services struct {
	Wire Wire
	// Yield, when set, is called after every yieldEvery bytes of a
	// snapshot's services are read. In a browser page every goroutine
	// shares the page's one thread; a Yield that blocks briefly gives it
	// back, so that a 10,000-service snapshot is read in several tasks
	// the page can answer input between, not one.
	Yield func()
}

// yieldEvery is how much of a snapshot is read between two Yields: about
// 800 services, 2 to 30 ms in Chromium's wasm (the first parts are the
// slowest: the code is not optimised yet).
const yieldEvery = 64 << 10

// NewServices is the state a run starts from: {"services": []}, what the
// demo sends as the input's state.
func NewServices() Services { return Services{Wire: NewWire(nil)} }

func (s Services) Replace(value []byte) (agui.State, error) {
	w, err := decodeWire(value, s.Yield)
	if err != nil {
		return s, err
	}
	return Services{w, s.Yield}, nil
}

func (s Services) Patch(ops []jsonpatch.Op) (agui.State, error) {
	w, err := ApplyPatch(s.Wire, ops)
	if err != nil {
		return s, err
	}
	return Services{w, s.Yield}, nil
}

func (s Services) AppendJSON(b []byte) []byte {
	data, _ := s.Wire.MarshalJSON() // strings and finite numbers: cannot fail
	return append(b, data...)
}
