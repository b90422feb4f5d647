package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"
)

// Limits of one patch. Past any of them the operation that crosses it is
// the one rejected.
const (
	MaxPatchOps   = 64
	MaxPatchBytes = 64 << 10
	// maxCopyGrowth bounds what "copy" operations may add to the state:
	// a 721-byte patch of copies could otherwise grow it to a megabyte.
	maxCopyGrowth = 256 << 10
)

// ApplyPatch applies RFC 6902 operations to w and returns the new Wire only
// if every operation applies and the whole result is valid. Otherwise w is
// untouched and the Rejection names the first operation, in patch order,
// that failed for any reason, found in the one pass that applies them.
//
// A patch whose every operation stays inside one service each is applied
// to those services' JSON alone, and only they are checked again: a delta
// costs what it changes. Any other patch (on the list itself, the root, or
// across services) is applied to the whole state's JSON. Both give the
// same results and rejections, which FuzzPatchPaths checks.
func ApplyPatch(w Wire, ops []Operation, runID string) (Wire, *Rejection) {
	if perService(w, ops) {
		return applyTo(newServiceStates(w), w, ops, runID)
	}
	return applyTo(newWholeState(w), w, ops, runID)
}

// document is the JSON a patch is applied to.
type document interface {
	apply(op Operation, copyBudget *int) error
	result() (Wire, error)
}

func applyTo(doc document, w Wire, ops []Operation, runID string) (Wire, *Rejection) {
	reject := func(i int, reason string) (Wire, *Rejection) {
		r := &Rejection{RunID: runID, Event: events.EventTypeStateDelta, Index: i, Ops: len(ops), Reason: Bound(reason)}
		if i >= 0 {
			r.Op, r.Path = Bound(ops[i].Op), Bound(ops[i].Path)
		}
		return w, r
	}
	if len(ops) == 0 {
		return reject(-1, "the patch has no operations")
	}
	size, budget := 0, maxCopyGrowth
	for i, op := range ops {
		if i == MaxPatchOps {
			return reject(i, fmt.Sprintf("oversized patch: more than %d operations", MaxPatchOps))
		}
		if reason := checkOperation(op); reason != "" {
			return reject(i, reason)
		}
		if size += len(op.Op) + len(op.Path) + len(op.From) + len(op.Value); size > MaxPatchBytes {
			return reject(i, fmt.Sprintf("oversized patch: more than %d KiB", MaxPatchBytes>>10))
		}
		if err := doc.apply(op, &budget); err != nil {
			return reject(i, explain(err))
		}
	}
	next, err := doc.result()
	if err != nil {
		blame := -1
		if len(ops) == 1 {
			blame = 0 // one operation made this state
		}
		return reject(blame, "the result is not a valid state: "+err.Error())
	}
	return next, nil
}

// checkOperation refuses what the patch library would accept but must not:
// unknown ops, missing members, forbidden or malformed paths.
func checkOperation(op Operation) string {
	if op.unreadable != "" {
		return op.unreadable
	}
	switch op.Op {
	case "add", "replace", "test":
		if op.Value == nil {
			return op.Op + " needs a value"
		}
	case "move", "copy":
		if !op.hasFrom {
			return op.Op + " needs a from path"
		}
		if reason := checkPointer(op.From); reason != "" {
			return "from: " + reason
		}
	case "remove":
	case "":
		return "the operation has no op"
	default:
		return fmt.Sprintf("unknown op %q", Bound(op.Op))
	}
	if !op.hasPath {
		return "the operation has no path"
	}
	return checkPointer(op.Path)
}

// perService reports whether every operation's path (and from) lies inside
// one existing service.
func perService(w Wire, ops []Operation) bool {
	for _, op := range ops {
		n, _, ok := inService(op.Path, w.Len())
		if !ok {
			return false
		}
		if op.hasFrom {
			if m, _, ok := inService(op.From, w.Len()); !ok || m != n {
				return false
			}
		}
	}
	return true
}

// wholeState is the whole Wire as JSON.
type wholeState struct{ doc []byte }

func newWholeState(w Wire) *wholeState {
	doc, _ := json.Marshal(w) // strings and finite numbers: cannot fail
	return &wholeState{doc: doc}
}

func (d *wholeState) apply(op Operation, budget *int) error {
	next, err := applyOne(d.doc, op, op.Path, op.From, budget)
	if err == nil {
		d.doc = next
	}
	return err
}

func (d *wholeState) result() (Wire, error) { return DecodeWire(d.doc) }

// serviceStates holds the JSON of each service the patch touched so far.
type serviceStates struct {
	base Wire
	docs map[int][]byte
}

func newServiceStates(w Wire) *serviceStates { return &serviceStates{base: w, docs: map[int][]byte{}} }

func (d *serviceStates) apply(op Operation, budget *int) error {
	n, path, _ := inService(op.Path, d.base.Len())
	from := ""
	if op.hasFrom {
		_, from, _ = inService(op.From, d.base.Len())
	}
	doc, ok := d.docs[n]
	if !ok {
		doc, _ = json.Marshal(d.base.At(n)) // strings and finite numbers: cannot fail
	}
	next, err := applyOne(doc, op, path, from, budget)
	if err == nil {
		d.docs[n] = next
	}
	return err
}

// result decodes and checks the touched services only, worded and ordered
// as DecodeWire would word and order the same faults in the whole state.
func (d *serviceStates) result() (Wire, error) {
	touched := slices.Sorted(maps.Keys(d.docs))
	changed := make(map[int]Service, len(touched))
	for _, n := range touched {
		s, err := decodeService(d.docs[n], n)
		if err != nil {
			return Wire{}, err
		}
		changed[n] = s
	}
	var reasons []string
	for _, n := range touched {
		reasons = appendServiceReasons(reasons, n, changed[n])
	}
	if len(reasons) > 0 {
		return Wire{}, ruleError(strings.Join(reasons, "; "))
	}
	next := d.base.withChanges(changed)
	ids, err := reindex(d.base, next, touched)
	if err != nil {
		return Wire{}, err
	}
	next.ids = ids
	return next, nil
}

// reindex checks the ids of the touched services against the others
// through w's index. Unchanged ids keep the index; changed ones rebuild it.
func reindex(w, next Wire, touched []int) (map[string]int, error) {
	index := w.index()
	// A duplicate involves a changed id. The whole state would report the
	// first position whose id an earlier position holds: find that one.
	at, first, id := -1, -1, ""
	idChanged := false
	for _, n := range touched {
		x := next.At(n).ID
		if x == w.At(n).ID {
			continue
		}
		idChanged = true
		var holders []int
		if j, ok := index[x]; ok && next.At(j).ID == x {
			holders = append(holders, j)
		}
		for _, m := range touched {
			if next.At(m).ID == x && !slices.Contains(holders, m) {
				holders = append(holders, m)
			}
		}
		slices.Sort(holders)
		if len(holders) > 1 && (at < 0 || holders[1] < at) {
			at, first, id = holders[1], holders[0], x
		}
	}
	switch {
	case at >= 0:
		return nil, duplicateError(at, first, id)
	case idChanged:
		next.ids = nil
		return next.index(), nil
	default:
		return index, nil
	}
}

// applyOne applies one operation to doc, with its path and from rewritten
// for that document.
func applyOne(doc []byte, op Operation, path, from string, budget *int) ([]byte, error) {
	if op.Op == "test" {
		return doc, testValue(doc, path, op.Value)
	}
	if op.Op == "copy" && *budget <= 0 {
		return nil, patchError(copyLimit)
	}
	operation := jsonpatch.Operation{"op": quoted(op.Op), "path": quoted(path)}
	if op.hasFrom {
		operation["from"] = quoted(from)
	}
	if op.Value != nil {
		value := json.RawMessage(op.Value)
		operation["value"] = &value
	}
	options := jsonpatch.NewApplyOptions()
	options.SupportNegativeIndices = false
	options.AccumulatedCopySizeLimit = int64(*budget)
	next, err := applyLibrary(jsonpatch.Patch{operation}, doc, options)
	if err == nil && op.Op == "copy" {
		*budget -= len(next) - len(doc)
	}
	return next, err
}

// applyLibrary runs json-patch/v5 on its own copy of doc. The library can
// panic on valid input; a panic here would kill the wasm app, so it becomes
// an error.
func applyLibrary(p jsonpatch.Patch, doc []byte, options *jsonpatch.ApplyOptions) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("the patch library failed: %v", r)
		}
	}()
	return p.ApplyWithOptions(doc, options)
}

func quoted(s string) *json.RawMessage {
	b, _ := jsontext.AppendQuote(nil, s) // a Go string always quotes
	m := json.RawMessage(b)
	return &m
}

const copyLimit = "copies would add more than 256 KiB to the state"

// patchError is a reason already worded for people.
type patchError string

func (e patchError) Error() string { return string(e) }

// explain words the library's errors without the paths they quote, so
// that the per-service and whole-state documents say the same.
func explain(err error) string {
	var worded patchError
	var copySize *jsonpatch.AccumulatedCopySizeError
	switch {
	case errors.As(err, &worded):
		return string(worded)
	case errors.As(err, &copySize):
		return copyLimit
	case errors.Is(err, jsonpatch.ErrInvalidIndex):
		return "no element at that index"
	case errors.Is(err, jsonpatch.ErrMissing):
		return "the path does not exist"
	case errors.Is(err, jsonpatch.ErrExpectedObject):
		return "the path does not lead into an object or array"
	default:
		return err.Error()
	}
}
