package core

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// Limits of one patch. Past any of them the operation that crosses it is
// the one refused.
const (
	MaxPatchOps   = 64
	MaxPatchBytes = 64 << 10
	// maxGrowth bounds what one patch may add to the state: a 721-byte
	// patch of copies could otherwise grow it to a megabyte.
	maxGrowth = 256 << 10
)

// ApplyPatch applies RFC 6902 operations (read and shape-checked by the
// engine) to w and returns the new Wire only if every operation applies
// and the whole result is valid. Otherwise w is untouched and the error
// is a *jsonpatch.Error naming the first operation, in patch order, that
// failed for any reason, found in the one pass that applies them; Index
// is -1 when the result of several operations is to blame.
//
// A patch whose every operation stays inside one service each is applied
// to those services alone, and only they are checked again: a delta costs
// what it changes. Any other patch (on the list itself, the root, or
// across services) is applied to the whole state. Both give the same
// results and errors, which FuzzPatchPaths checks.
func ApplyPatch(w Wire, ops []jsonpatch.Op) (Wire, error) {
	if len(ops) == 0 {
		return w, nil // an empty patch is a valid one that changes nothing
	}
	if perService(w, ops) {
		return applyPerService(w, ops)
	}
	return applyWhole(w, ops)
}

// notAState begins the reason of a patch whose result the services
// schema refuses (Rejection.Undrawable).
const notAState = "the result is not a valid state: "

// guard is what the demo refuses of operation i before applying it: past
// a patch's bounds, or a path into a forbidden segment.
func guard(ops []jsonpatch.Op, i int, size *int) *jsonpatch.Error {
	op := ops[i]
	if i == MaxPatchOps {
		return refused(op, fmt.Sprintf("oversized patch: more than %d operations", MaxPatchOps))
	}
	if *size += len(op.Op) + len(op.Path) + len(op.From) + jsonpatch.Size(op.Value); *size > MaxPatchBytes {
		return refused(op, fmt.Sprintf("oversized patch: more than %d KiB", MaxPatchBytes>>10))
	}
	if reason := forbidden(op); reason != "" {
		return refused(op, reason)
	}
	return nil
}

func refused(op jsonpatch.Op, reason string) *jsonpatch.Error {
	return &jsonpatch.Error{Index: op.Index, Op: op.Op, Path: op.Path, Reason: reason}
}

// forbiddenSegments are refused in any path: a JavaScript client that
// applied them would pollute Object.prototype, and no Wire has them.
var forbiddenSegments = []string{"__proto__", "constructor", "prototype"}

func forbidden(op jsonpatch.Op) string {
	for _, p := range []struct{ name, pointer string }{{"", op.Path}, {"from: ", op.From}} {
		tokens, _ := jsonpatch.ParsePointer(p.pointer) // checked by the engine
		for _, token := range tokens {
			if slices.Contains(forbiddenSegments, token) {
				return p.name + "forbidden path segment " + token
			}
		}
	}
	return ""
}

// applyOne applies one operation, within what the whole patch may still
// add to the state: growth is what it added so far, in bytes of JSON.
func applyOne(doc jsonpatch.Value, op jsonpatch.Op, growth *int) (jsonpatch.Value, *jsonpatch.Error) {
	next, err := jsonpatch.Apply(doc, []jsonpatch.Op{op}, math.MaxInt)
	if err != nil {
		var perr *jsonpatch.Error
		errors.As(err, &perr) // Apply's errors are all *jsonpatch.Error
		return doc, perr
	}
	if *growth += jsonpatch.Size(next) - jsonpatch.Size(doc); *growth > maxGrowth {
		return doc, refused(op, fmt.Sprintf("the patch would add more than %d KiB to the state", maxGrowth>>10))
	}
	return next, nil
}

// applyWhole applies the patch to the whole state.
func applyWhole(w Wire, ops []jsonpatch.Op) (Wire, error) {
	var doc jsonpatch.Value = w.value()
	growth, size := 0, 0
	for i, op := range ops {
		if err := guard(ops, i, &size); err != nil {
			return w, err
		}
		var err *jsonpatch.Error
		if doc, err = applyOne(doc, op, &growth); err != nil {
			return w, err
		}
	}
	result, err := DecodeWire(jsonpatch.Encode(doc))
	if err != nil {
		return w, blame(ops, notAState+err.Error())
	}
	return result, nil
}

// blame names the operation that made an invalid result: the only one,
// or none (-1) when several did.
func blame(ops []jsonpatch.Op, reason string) *jsonpatch.Error {
	if len(ops) == 1 {
		return refused(ops[0], reason)
	}
	return &jsonpatch.Error{Index: -1, Reason: reason}
}

// perService reports whether every operation's path (and from) lies inside
// one existing service.
func perService(w Wire, ops []jsonpatch.Op) bool {
	for _, op := range ops {
		n, _, ok := inService(op.Path, w.Len())
		if !ok {
			return false
		}
		if op.Op == "move" || op.Op == "copy" {
			if m, _, ok := inService(op.From, w.Len()); !ok || m != n {
				return false
			}
		}
	}
	return true
}

// applyPerService applies each operation to its own service, then checks
// the services it touched, worded and ordered as DecodeWire would word and
// order the same faults in the whole state.
func applyPerService(w Wire, ops []jsonpatch.Op) (Wire, error) {
	docs := map[int]jsonpatch.Value{}
	growth, size := 0, 0
	for i, op := range ops {
		if err := guard(ops, i, &size); err != nil {
			return w, err
		}
		n, path, _ := inService(op.Path, w.Len())
		doc, ok := docs[n]
		if !ok {
			doc = serviceValue(w.At(n))
		}
		local := op
		local.Path = path
		if op.Op == "move" || op.Op == "copy" {
			_, local.From, _ = inService(op.From, w.Len())
		}
		next, err := applyOne(doc, local, &growth)
		if err != nil {
			err.Path = op.Path // as sent, not as rewritten
			return w, err
		}
		docs[n] = next
	}
	touched := slices.Sorted(maps.Keys(docs))
	changed := make(map[int]Service, len(touched))
	for _, n := range touched {
		s, err := decodeService(jsonpatch.Encode(docs[n]), n)
		if err != nil {
			return w, blame(ops, notAState+err.Error())
		}
		changed[n] = s
	}
	var reasons []string
	for _, n := range touched {
		reasons = appendServiceReasons(reasons, n, changed[n])
	}
	if len(reasons) > 0 {
		return w, blame(ops, notAState+strings.Join(reasons, "; "))
	}
	next := w.withChanges(changed)
	ids, err := reindex(w, next, touched)
	if err != nil {
		return w, blame(ops, notAState+err.Error())
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

// inService splits a pointer into one service: "/services/2/latency" is
// service 2, "/latency". ok is false for anything else: the list itself,
// the root, an index out of range or not canonical, the service as a whole.
func inService(p string, services int) (index int, rest string, ok bool) {
	after, found := strings.CutPrefix(p, "/services/")
	if !found {
		return 0, "", false
	}
	digits, rest, found := strings.Cut(after, "/")
	if !found || digits == "" || (len(digits) > 1 && digits[0] == '0') || strings.Trim(digits, "0123456789") != "" {
		return 0, "", false
	}
	index, err := strconv.Atoi(digits)
	if err != nil || index >= services {
		return 0, "", false
	}
	return index, "/" + rest, true
}

// The members of a Service, in the order the agent writes them.
var serviceMembers = []string{"id", "name", "series", "volume", "latency"}

// serviceValue is a service as a JSON value, without a round trip
// through text.
func serviceValue(s Service) *jsonpatch.Object {
	return jsonpatch.NewObject(serviceMembers, []jsonpatch.Value{s.ID, s.Name, string(s.Series), number(s.Volume), number(s.Latency)})
}

// value is the whole Wire as a JSON value.
func (w Wire) value() *jsonpatch.Object {
	items := make([]jsonpatch.Value, 0, w.len)
	for _, s := range w.All() {
		items = append(items, serviceValue(s))
	}
	return jsonpatch.NewObject([]string{"services"}, []jsonpatch.Value{jsonpatch.NewArray(items)})
}

// number writes a float as encoding/json does: the shortest text that
// reads back the same, exponents only for the very large and small.
func number(v float64) jsonpatch.Number {
	f := byte('f')
	if abs := max(v, -v); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		f = 'e'
	}
	b := strconv.AppendFloat(nil, v, f, -1, 64)
	if f == 'e' { // 1e-07 → 1e-7
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b = append(b[:n-2], b[n-1])
		}
	}
	return jsonpatch.Number(b)
}
