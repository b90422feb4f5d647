package proto

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
)

// Template is an event's binary frame with places left for text: the
// strings it carries that hold one of the marks it was made with. A server
// that plays one script to many requests encodes each event once, its
// thread and run ids marked, and fills each request's ids in with Append,
// which writes the lengths around them anew without encoding the event
// again (an SSE server does the same with the event's JSON).
type Template struct {
	marks  []string
	frame  []byte
	prefix []prefix // the length prefixes that enclose a place, the frame's own first, in order
	inner  []int    // prefix's indexes, the innermost (shortest) first
	places []place  // in order
}

// prefix is a length prefix of the frame that encloses a place: where it
// is, how long it is, and the length it gives.
type prefix struct {
	at, size int
	length   int
	end      int // where what it measures ends
}

// place is where a mark is in the frame, and which mark.
type place struct {
	at, mark int
}

// errMarkInValue: a mark inside a google.protobuf.Value, whose strings a
// template does not reach; the event is then encoded for each use.
var errMarkInValue = errors.New("proto: a mark inside a JSON value (Value or Struct): no template")

// NewTemplate encodes event as a frame (AppendFrame) and finds where its
// strings hold marks. Marks must not hold one another, and must appear
// only in the event's string fields, not inside a JSON value (state,
// metadata, a result): an event whose marks are elsewhere, or that the
// binary schema cannot carry, is an error.
func NewTemplate(event []byte, marks ...string) (*Template, error) {
	frame, err := AppendFrame(nil, event)
	if err != nil {
		return nil, err
	}
	t := &Template{marks: marks, frame: frame}
	t.prefix = append(t.prefix, prefix{at: 0, size: 4, length: len(frame) - 4, end: len(frame)})
	m, payload, at, err := envelope(frame[4:])
	if err != nil {
		return nil, err
	}
	// The arm's own prefix: the tag and length before its payload.
	armAt := 4 + at - protowire.SizeVarint(uint64(len(payload)))
	var w walk
	w.marks, w.t = marks, t
	w.open(prefix{at: armAt, size: protowire.SizeVarint(uint64(len(payload))), length: len(payload), end: 4 + at + len(payload)})
	if err := w.message(m, frame, 4+at, 4+at+len(payload)); err != nil {
		return nil, err
	}
	w.close()
	slices.SortFunc(t.prefix, func(a, b prefix) int { return a.at - b.at })
	for i := range t.prefix {
		t.inner = append(t.inner, i)
	}
	slices.SortFunc(t.inner, func(a, b int) int { return (t.prefix[a].end - t.prefix[a].at) - (t.prefix[b].end - t.prefix[b].at) })
	return t, nil
}

// walk finds the places of a frame's marks, and the prefixes that
// enclose them.
type walk struct {
	t     *Template
	marks []string
	stack []prefix // the prefixes open where the walk is
	found []int    // places found inside each open prefix
}

func (w *walk) open(p prefix) { w.stack, w.found = append(w.stack, p), append(w.found, 0) }

// close drops the innermost prefix, keeping it if a place is inside.
func (w *walk) close() {
	n := len(w.stack) - 1
	if w.found[n] > 0 {
		w.t.prefix = append(w.t.prefix, w.stack[n])
		if n > 0 {
			w.found[n-1] += w.found[n]
		}
	}
	w.stack, w.found = w.stack[:n], w.found[:n]
}

// message walks the fields of a message of kind m in frame[from:to].
func (w *walk) message(m *message, frame []byte, from, to int) error {
	for at := from; at < to; {
		num, typ, n := protowire.ConsumeTag(frame[at:to])
		if n < 0 {
			return protowire.ParseError(n)
		}
		if typ != protowire.BytesType {
			k := protowire.ConsumeFieldValue(num, typ, frame[at+n:to])
			if k < 0 {
				return protowire.ParseError(k)
			}
			at += n + k
			continue
		}
		length, k := protowire.ConsumeVarint(frame[at+n : to])
		if k < 0 {
			return protowire.ParseError(k)
		}
		start := at + n + k
		end := start + int(length)
		f := m.field(num)
		w.open(prefix{at: at + n, size: k, length: int(length), end: end})
		switch {
		case f != nil && (f.kind == nested || f.kind == list):
			if err := w.message(f.msg, frame, start, end); err != nil {
				return err
			}
		case f != nil && (f.kind == text || f.kind == optText || f.kind == texts):
			w.text(frame, start, end)
		default: // a Value, a Struct: their strings are not reached
			for _, mark := range w.marks {
				if bytes.Contains(frame[start:end], []byte(mark)) {
					return errMarkInValue
				}
			}
		}
		w.close()
		at = end
	}
	return nil
}

// text notes the marks a string holds.
func (w *walk) text(frame []byte, start, end int) {
	for at := start; at < end; {
		next, which := -1, -1
		for i, mark := range w.marks {
			if j := bytes.Index(frame[at:end], []byte(mark)); j >= 0 && (next < 0 || j < next) {
				next, which = j, i
			}
		}
		if next < 0 {
			return
		}
		w.t.places = append(w.t.places, place{at: at + next, mark: which})
		w.found[len(w.found)-1]++
		at += next + len(w.marks[which])
	}
}

// Append adds the frame to dst, each place filled with the fill of its
// mark (fills[i] for the template's marks[i], valid UTF-8), every length
// around a place made to fit.
func (t *Template) Append(dst []byte, fills ...[]byte) []byte {
	marks := t.marks
	// The new lengths, the innermost first: a length grows by what the
	// places inside it add, and by what the prefixes inside it grow.
	var lengths [8]int
	length := lengths[:0]
	if len(t.prefix) > len(lengths) {
		length = make([]int, 0, len(t.prefix))
	}
	length = length[:len(t.prefix)]
	for _, i := range t.inner {
		p := t.prefix[i]
		n := p.length
		for _, pl := range t.places {
			if pl.at > p.at && pl.at < p.end {
				n += len(fills[pl.mark]) - len(marks[pl.mark])
			}
		}
		for j, q := range t.prefix {
			if q.at > p.at && q.at < p.end {
				n += sizeOf(q, length[j]) - q.size
			}
		}
		length[i] = n
	}
	at, pi := 0, 0
	for i, p := range t.prefix {
		for ; pi < len(t.places) && t.places[pi].at < p.at; pi++ {
			dst = append(dst, t.frame[at:t.places[pi].at]...)
			dst = append(dst, fills[t.places[pi].mark]...)
			at = t.places[pi].at + len(marks[t.places[pi].mark])
		}
		dst = append(dst, t.frame[at:p.at]...)
		if i == 0 {
			dst = binary.BigEndian.AppendUint32(dst, uint32(length[i])) // the frame's own
		} else {
			dst = protowire.AppendVarint(dst, uint64(length[i]))
		}
		at = p.at + p.size
	}
	for ; pi < len(t.places); pi++ {
		dst = append(dst, t.frame[at:t.places[pi].at]...)
		dst = append(dst, fills[t.places[pi].mark]...)
		at = t.places[pi].at + len(marks[t.places[pi].mark])
	}
	return append(dst, t.frame[at:]...)
}

// sizeOf is the size of a prefix giving length: a varint's, or the
// frame's own four bytes.
func sizeOf(p prefix, length int) int {
	if p.at == 0 {
		return 4
	}
	return protowire.SizeVarint(uint64(length))
}
