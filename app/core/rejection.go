package core

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// maxEvidence bounds each text a Rejection keeps.
const maxEvidence = 160

// Rejection is the bounded evidence of one refused update.
type Rejection struct {
	RunID  string
	Event  agui.Type // STATE_SNAPSHOT or STATE_DELTA
	Index  int       // the failing operation, from 0; -1 when no single operation is to blame
	Ops    int       // operations in the patch as sent
	Op     string
	Path   string
	Reason string
}

// rejection reads the evidence of a refused update from the engine's
// judgement.
func rejection(runID string, j agui.Judgement, ops int) Rejection {
	r := Rejection{RunID: runID, Event: j.Type, Index: -1, Ops: ops, Reason: Clip(j.Change.Refusal.Error())}
	var pe *jsonpatch.Error
	if errors.As(j.Change.Refusal, &pe) {
		r.Index, r.Reason = pe.Index, Clip(pe.Reason)
		if pe.Index >= 0 {
			r.Op, r.Path = Clip(pe.Op), Clip(pe.Path)
		}
	}
	return r
}

// Operation names the failing operation for people: "operation 2 of 2
// (replace /services/7/latency)", or "the snapshot".
func (r Rejection) Operation() string {
	switch {
	case r.Event == agui.StateSnapshot:
		return "the snapshot"
	case r.Index < 0 && r.Ops == 0:
		return "the patch"
	case r.Index < 0:
		return fmt.Sprintf("the patched state (%d operations)", r.Ops)
	default:
		return fmt.Sprintf("operation %d of %d (%s %s)", r.Index+1, r.Ops, r.Op, r.Path)
	}
}

// Undrawable reports whether the refused update was a state the services
// schema refuses (a snapshot, or a patched result, that is not a valid
// {services: [...]}), rather than a patch that could not apply or went
// past this demo's bounds.
func (r Rejection) Undrawable() bool {
	return r.Event == agui.StateSnapshot || strings.HasPrefix(r.Reason, notAState)
}

func (r Rejection) String() string {
	return "refused " + string(r.Event) + ": " + r.Operation() + ": " + r.Reason
}

// Clip cuts a text to 160 bytes on a character boundary: every text a
// Rejection or a failure keeps is bounded so.
func Clip(s string) string { return ClipTo(s, maxEvidence) }

// ClipTo cuts a text to n bytes on a character boundary, marking the cut.
func ClipTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:runeCut(s, n)] + "…"
}

// runeCut is where to cut b, longer than n bytes, to at most n without
// splitting a UTF-8 sequence: back over at most three continuation
// bytes, as a character has at most four.
func runeCut[T string | []byte](b T, n int) int {
	for i := 0; i < utf8.UTFMax-1 && n > 0 && b[n]&0xC0 == 0x80; i++ {
		n--
	}
	return n
}
