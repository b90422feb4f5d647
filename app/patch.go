package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"
	jsonpatch "github.com/evanphx/json-patch/v5"
)

// Limits of one patch. Anything larger is rejected as oversized.
const (
	MaxPatchOps   = 64
	MaxPatchBytes = 64 << 10
	// maxCopyGrowth bounds what "copy" operations may add to the document:
	// a 721-byte patch of copies could otherwise grow it to a megabyte.
	maxCopyGrowth = 256 << 10
	// maxEvidence bounds each text a Rejection keeps.
	maxEvidence = 160
)

// Rejection is the bounded evidence of one refused update.
type Rejection struct {
	RunID  string
	Event  events.EventType // STATE_SNAPSHOT or STATE_DELTA
	Index  int              // the failing operation, from 0; -1 when no single operation is to blame
	Ops    int              // operations in the patch
	Op     string
	Path   string
	Reason string
}

// Operation names the failing operation for people: "operation 2 of 2
// (replace /services/7/latency)", or "the snapshot".
func (r Rejection) Operation() string {
	switch {
	case r.Event == events.EventTypeStateSnapshot:
		return "the snapshot"
	case r.Index < 0:
		return fmt.Sprintf("the patched state (%d operations)", r.Ops)
	default:
		return fmt.Sprintf("operation %d of %d (%s %s)", r.Index+1, r.Ops, r.Op, r.Path)
	}
}

func (r Rejection) String() string {
	return "rejected " + string(r.Event) + ": " + r.Operation() + ": " + r.Reason
}

var (
	forbiddenSegments = []string{"__proto__", "constructor", "prototype"}
	unescapeSegment   = strings.NewReplacer("~1", "/", "~0", "~") // RFC 6901
)

var applyOptions = &jsonpatch.ApplyOptions{
	SupportNegativeIndices:   false,
	AccumulatedCopySizeLimit: maxCopyGrowth,
	EscapeHTML:               true,
}

// ApplyPatch applies RFC 6902 operations to a copy of w and returns the new
// Wire only if every operation applies and the whole result is valid.
// Otherwise w is untouched and the Rejection says which operation failed
// and why. runID is only recorded in the evidence.
func ApplyPatch(w Wire, ops []events.JSONPatchOperation, runID string) (Wire, *Rejection) {
	reject := func(i int, reason string) (Wire, *Rejection) {
		r := &Rejection{RunID: runID, Event: events.EventTypeStateDelta, Index: i, Ops: len(ops), Reason: bound(reason)}
		if i >= 0 {
			r.Op, r.Path = bound(ops[i].Op), bound(ops[i].Path)
		}
		return w, r
	}
	if len(ops) == 0 {
		return reject(-1, "the patch has no operations")
	}
	if len(ops) > MaxPatchOps {
		return reject(-1, fmt.Sprintf("oversized patch: %d operations, at most %d", len(ops), MaxPatchOps))
	}

	patch := make(jsonpatch.Patch, len(ops))
	size := 0
	for i, op := range ops {
		if reason := checkOperation(op); reason != "" {
			return reject(i, reason)
		}
		encoded, err := encodeOperation(op)
		if err != nil {
			return reject(i, err.Error())
		}
		patch[i] = encoded
		for _, raw := range encoded {
			size += len(*raw)
		}
	}
	if size > MaxPatchBytes {
		return reject(-1, fmt.Sprintf("oversized patch: %d bytes, at most %d", size, MaxPatchBytes))
	}

	doc, err := json.Marshal(w)
	if err != nil {
		return reject(-1, err.Error())
	}
	next, err := apply(patch, doc)
	if err != nil {
		return reject(failingOperation(patch, doc), explain(err))
	}
	candidate, err := DecodeWire(next)
	if err != nil {
		blame := -1
		if len(ops) == 1 {
			blame = 0 // one operation made this state
		}
		return reject(blame, "the result is not a valid state: "+err.Error())
	}
	return candidate, nil
}

// checkOperation refuses what the patch library would accept but must not:
// unknown ops, missing members, forbidden or non-canonical path segments.
func checkOperation(op events.JSONPatchOperation) string {
	switch op.Op {
	case "add", "replace", "test":
		if op.Value == nil {
			return op.Op + " needs a value"
		}
	case "move", "copy":
		if op.From == "" {
			return op.Op + " needs a from path"
		}
		if reason := checkPointer(op.From); reason != "" {
			return "from: " + reason
		}
	case "remove":
	default:
		return fmt.Sprintf("unknown op %q", op.Op)
	}
	return checkPointer(op.Path)
}

// checkPointer validates a JSON Pointer (RFC 6901) segment by segment.
func checkPointer(p string) string {
	if p == "" {
		return "" // the whole document; the result is validated like any other
	}
	if p[0] != '/' {
		return "path must start with /"
	}
	for _, seg := range strings.Split(p[1:], "/") {
		seg = unescapeSegment.Replace(seg)
		for _, f := range forbiddenSegments {
			if seg == f {
				return "forbidden path segment " + f
			}
		}
		if seg != "" && seg != "-" && isInteger(seg) {
			switch {
			case seg[0] == '-':
				return "negative array index " + seg
			case seg[0] == '+' || (len(seg) > 1 && seg[0] == '0'):
				return "non-canonical array index " + seg
			}
		}
	}
	return ""
}

func isInteger(s string) bool {
	digits := strings.TrimLeft(s, "+-")
	if len(digits) == 0 || len(s)-len(digits) > 1 {
		return false
	}
	return strings.Trim(digits, "0123456789") == ""
}

// encodeOperation builds the library's form of one operation.
func encodeOperation(op events.JSONPatchOperation) (jsonpatch.Operation, error) {
	raw := func(v any) (*json.RawMessage, error) {
		b, err := json.Marshal(v)
		m := json.RawMessage(b)
		return &m, err
	}
	out := jsonpatch.Operation{}
	var err error
	if out["op"], err = raw(op.Op); err != nil {
		return nil, err
	}
	if out["path"], err = raw(op.Path); err != nil {
		return nil, err
	}
	if op.From != "" {
		if out["from"], err = raw(op.From); err != nil {
			return nil, err
		}
	}
	if op.Value != nil {
		if out["value"], err = raw(op.Value); err != nil {
			return nil, fmt.Errorf("value: %w", err)
		}
	}
	return out, nil
}

// apply runs the library on its own copy of doc. The library can panic on
// valid input; a panic here would kill the wasm app, so it becomes an error.
func apply(p jsonpatch.Patch, doc []byte) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("the patch library failed: %v", r)
		}
	}()
	return p.ApplyWithOptions(doc, applyOptions)
}

// failingOperation replays the patch one operation at a time to find the
// first that fails. Only rejected patches pay for it.
func failingOperation(p jsonpatch.Patch, doc []byte) int {
	for i := range p {
		next, err := apply(p[i:i+1], doc)
		if err != nil {
			return i
		}
		doc = next
	}
	return -1
}

// explain turns the library's errors into a short reason.
func explain(err error) string {
	switch {
	case errors.Is(err, jsonpatch.ErrInvalidIndex):
		return "no element at that index"
	case errors.Is(err, jsonpatch.ErrTestFailed):
		return "test failed: the value differs"
	case errors.Is(err, jsonpatch.ErrMissing):
		return "the path does not exist"
	case errors.Is(err, jsonpatch.ErrExpectedObject):
		return "the path does not lead into an object or array"
	default:
		return err.Error()
	}
}

func bound(s string) string {
	if len(s) <= maxEvidence {
		return s
	}
	cut := maxEvidence
	for cut > 0 && s[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return s[:cut] + "…"
}
