package core

import (
	"github.com/agent-analysis/agent-analysis/app/patch"
	"github.com/agent-analysis/agent-analysis/app/protocol"
)

// Services is the demo's state as the AG-UI engine holds it: a Wire,
// decoded exactly and checked whole by every snapshot and patch. The
// engine replaces and patches it (protocol.State); what it refuses, the
// demo fails the run over (1.0 lets a consumer choose).
type Services struct{ Wire Wire }

// NewServices is the state a run starts from: {"services": []}, what the
// demo sends as the input's state.
func NewServices() Services { return Services{NewWire(nil)} }

func (s Services) Replace(value []byte) (protocol.State, error) {
	w, err := DecodeWire(value)
	if err != nil {
		return s, err
	}
	return Services{w}, nil
}

func (s Services) Patch(ops []patch.Op) (protocol.State, error) {
	w, err := ApplyPatch(s.Wire, ops)
	if err != nil {
		return s, err
	}
	return Services{w}, nil
}

func (s Services) AppendJSON(b []byte) []byte {
	data, _ := s.Wire.MarshalJSON() // strings and finite numbers: cannot fail
	return append(b, data...)
}
