package agui

import (
	"fmt"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// State is the run's state as a consumer holds it (events/state). The
// engine replaces it on STATE_SNAPSHOT and patches it on STATE_DELTA.
// JSONState holds any value; an application whose state has a known
// shape implements State to keep it typed and checked.
//
// Replace and Patch leave the receiver as it was and return a new State:
// a patch applies whole or not at all (basic/patterns/snapshots). An
// error refuses the update (Options.Refusals says what follows); a
// *LimitError rejects the stream whatever the policy, since the value
// cannot be held at all.
type State interface {
	// Replace returns the state a snapshot makes: value is its JSON.
	Replace(value []byte) (State, error)
	// Patch applies RFC 6902 operations, already checked for their
	// shape and without the ones the protocol does not describe. A
	// failing operation is reported as a *jsonpatch.Error.
	Patch(ops []jsonpatch.Op) (State, error)
	// AppendJSON appends the state as JSON: what the next run's input
	// carries back.
	AppendJSON(b []byte) []byte
}

// LimitError is a state update past one of the consumer's bounds: a
// State returns it for a value too large or deep to hold.
type LimitError struct{ Reason string }

// Error is the reason.
func (e *LimitError) Error() string { return e.Reason }

// JSONState is a state of any JSON value: an object, an array, a string,
// a number, a boolean, or null (events/state: "any JSON value, not only
// an object"), of at most MaxStateBytes. It is what a Consumer holds
// unless Options.State says otherwise.
type JSONState struct{ value jsonpatch.Value }

// NewJSONState is the state {}, what an input without a state starts
// from.
func NewJSONState() JSONState { return JSONState{jsonpatch.NewObject(nil, nil)} }

// Value is the state.
func (s JSONState) Value() jsonpatch.Value { return s.value }

// Replace is the state value holds.
func (s JSONState) Replace(value []byte) (State, error) {
	if len(value) > MaxStateBytes {
		return s, &LimitError{fmt.Sprintf("a state of %d bytes is over the %d MiB bound", len(value), MaxStateBytes>>20)}
	}
	v, err := jsonpatch.Decode(value)
	if err != nil {
		return s, &LimitError{err.Error()} // valid JSON already: only nesting is left to refuse
	}
	return JSONState{v}, nil
}

// Patch is the state with ops applied, or a *jsonpatch.Error naming the
// first that failed.
func (s JSONState) Patch(ops []jsonpatch.Op) (State, error) {
	next, err := jsonpatch.Apply(s.value, ops, MaxStateBytes)
	if err != nil {
		return s, err
	}
	return JSONState{next}, nil
}

// AppendJSON appends the state as compact JSON.
func (s JSONState) AppendJSON(b []byte) []byte { return jsonpatch.Append(b, s.value) }
