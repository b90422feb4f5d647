package proto

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// Decode reads one Event message, a frame without its length, and returns
// the event as AG-UI JSON: the members @ag-ui/proto 1.0.0's decode gives
// for the same bytes (the guide lists where it departs), "type"
// first. It fails with a *DecodeError (ErrMalformed) or, for an event of a
// type this schema does not know, an *UnknownEventError (ErrUnknownEvent).
func Decode(msg []byte) ([]byte, error) { return AppendDecode(nil, msg) }

// AppendDecode is Decode appending to dst; on an error dst is returned as
// it was.
func AppendDecode(dst, msg []byte) ([]byte, error) { return AppendDecodeMax(dst, msg, 0) }

// AppendDecodeMax is AppendDecode refusing an event whose JSON is over
// maxJSON bytes (none when 0) with an error matching ErrEventTooLarge. A
// frame can decode to many times its size (small messages that each
// write default members), so decoding stops soon after the JSON passes
// the bound rather than building it whole.
func AppendDecodeMax(dst, msg []byte, maxJSON int) ([]byte, error) {
	m, payload, at, err := envelope(msg)
	if err != nil {
		return dst, err
	}
	d := decoder{out: dst, joinable: max(8*len(msg), 1<<20), start: len(dst), max: maxJSON}
	err = d.event(m, payload, at)
	if err == nil {
		err = d.room(0)
	}
	if d.overJoined != nil { // what failed after it read what it could not join
		err = d.overJoined
	}
	if errors.Is(err, ErrEventTooLarge) {
		return dst, fmt.Errorf("%w: its JSON passes %d bytes", ErrEventTooLarge, maxJSON)
	}
	if err != nil {
		return dst, within(err, armName(eventArms[m.typ]))
	}
	return d.out, nil
}

// envelope finds the Event's one arm. Like @ag-ui/proto, it refuses two
// different arms (protobuf would keep the last: which one a reader sees
// must not depend on the reader), merges an arm given twice, and tells
// an event from a later protocol (only arms it does not know, each a
// well-formed message) from broken bytes.
func envelope(b []byte) (m *message, payload []byte, at int, err error) {
	if len(b) == 0 {
		return nil, nil, 0, bad(0, "", "an empty message names no event")
	}
	var arm protowire.Number
	var unknown []int
	broken := false // an unknown field that is not a message: not a future event
	for off := 0; off < len(b); {
		num, typ, n := protowire.ConsumeTag(b[off:])
		if n < 0 {
			return nil, nil, 0, wireError(off, "", n)
		}
		tagAt := off
		off += n
		if events[num] == nil {
			n = protowire.ConsumeFieldValue(num, typ, b[off:])
			if n < 0 {
				return nil, nil, 0, wireError(off, "", n)
			}
			if typ == protowire.BytesType {
				v, _ := protowire.ConsumeBytes(b[off:])
				if walks(v) {
					unknown = append(unknown, int(num))
				} else {
					broken = true
				}
			}
			off += n
			continue
		}
		if typ != protowire.BytesType {
			return nil, nil, 0, wrongWire(tagAt, armName(num), typ, protowire.BytesType)
		}
		v, n := protowire.ConsumeBytes(b[off:])
		if n < 0 {
			return nil, nil, 0, wireError(off, armName(num), n)
		}
		if arm != 0 && arm != num {
			return nil, nil, 0, bad(tagAt, "", "two events in one message: "+armName(arm)+" and "+armName(num))
		}
		if arm == 0 {
			payload, at = v, off+n-len(v)
		} else {
			payload = nil // given twice: merged below
		}
		arm = num
		off += n
	}
	if arm == 0 {
		if len(unknown) > 0 && !broken {
			return nil, nil, 0, &UnknownEventError{Arms: unknown}
		}
		return nil, nil, 0, bad(0, "", "names no event")
	}
	if payload == nil {
		payload, at = joined(b, arm)
	}
	return events[arm], payload, at, nil
}

// armName is an Event arm's name in agui.proto: its type in lower case.
func armName(num protowire.Number) string { return strings.ToLower(events[num].typ) }

// walks reports whether b reads as one level of a protobuf message, which
// is all that can be asked of an event from a later protocol.
func walks(b []byte) bool {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeField(b)
		if n < 0 || num == 0 || typ == protowire.EndGroupType {
			return false
		}
		b = b[n:]
	}
	return true
}

// decoder writes one event's JSON.
type decoder struct {
	out   []byte
	depth int
	// joinable is what merging message fields given more than once may
	// still copy: eight times the message, at least 1 MiB, for all merges
	// together. Each merge copies all below it, so a field given twice at
	// each of many levels would make a frame cost its size times its depth
	// in memory (10 MiB frames, 512 levels); two encodings of one event
	// concatenated, which protobuf reads as one, merge at each level they
	// nest, and pass. overJoined is the merge that went past it; the
	// decoding ends with it.
	joinable   int
	overJoined *DecodeError
	// start is where this event's JSON begins in out, and max the most
	// it may hold (none when 0).
	start, max int
}

// room fails once the JSON, with n bytes more, would pass d.max. It is
// asked at each object, array, string and list item: a frame of many
// small values stops within one value of the bound.
func (d *decoder) room(n int) error {
	if d.max > 0 && len(d.out)-d.start+n > d.max {
		return ErrEventTooLarge
	}
	return nil
}

// maxFields bounds the field numbers of the messages an event holds
// (Message's 14 are the most), so that a message's fields fit on the stack.
const maxFields = 15

// scanned is one message's fields as read: for each number, how many times
// it came and its last value. protobuf keeps the last of a scalar given
// twice, and merges a message given twice (joined).
type scanned struct {
	m    *message
	b    []byte
	at   int // b's offset in the Event message, for errors
	last [maxFields]occurrence
}

type occurrence struct {
	n  int
	at int    // the offset of its value
	v  uint64 // a varint
	b  []byte // a length-delimited value
}

func (s *scanned) scan(m *message, b []byte, at int) error {
	s.m, s.b, s.at = m, b, at
	for off := 0; off < len(b); {
		num, typ, n := protowire.ConsumeTag(b[off:])
		if n < 0 {
			return wireError(at+off, "", n)
		}
		tagAt := off
		off += n
		fd := m.field(num)
		if fd == nil { // a field of a later protocol: protobuf skips it
			if n = protowire.ConsumeFieldValue(num, typ, b[off:]); n < 0 {
				return wireError(at+off, "", n)
			}
			off += n
			continue
		}
		if typ != fd.kind.wire() {
			return wrongWire(at+tagAt, fd.proto, typ, fd.kind.wire())
		}
		o := &s.last[num]
		o.n++
		o.at = at + off
		if typ == protowire.VarintType {
			o.v, n = protowire.ConsumeVarint(b[off:])
		} else {
			o.b, n = protowire.ConsumeBytes(b[off:])
			o.at += n - len(o.b)
		}
		if n < 0 {
			return wireError(at+off, fd.proto, n)
		}
		off += n
	}
	return nil
}

// each calls fn with every value of a length-delimited field, in order.
func (s *scanned) each(num protowire.Number, fn func(v []byte, at int) error) error {
	for off := 0; off < len(s.b); {
		n2, typ, n := protowire.ConsumeTag(s.b[off:])
		off += n
		if n2 != num {
			off += protowire.ConsumeFieldValue(n2, typ, s.b[off:])
			continue
		}
		v, n := protowire.ConsumeBytes(s.b[off:])
		if err := fn(v, s.at+off+n-len(v)); err != nil {
			return err
		}
		off += n
	}
	return nil
}

// merged is a message field's value: protobuf merges a message given more
// than once as if its values were one, joined (d.joined).
func (d *decoder) merged(s *scanned, num protowire.Number) ([]byte, int) {
	o := &s.last[num]
	if o.n == 1 {
		return o.b, o.at
	}
	return d.joined(s.b, num, s.at)
}

// joined is joined(b, num) within what d may still join, its offset in
// the message (base is b's); past it, nothing (an empty message), and the
// decoding fails with overJoined.
func (d *decoder) joined(b []byte, num protowire.Number, base int) ([]byte, int) {
	size, at := 0, -1
	for v, vat := range occurrences(b, num) {
		if at < 0 {
			at = vat // the first's, as joined says
		}
		size += len(v)
	}
	if d.overJoined != nil || size > d.joinable {
		if d.overJoined == nil {
			d.overJoined = bad(base+at, "", "a message field given more than once, nested in others given more than once, past what merging them may copy (eight times the frame, at least 1 MiB)")
		}
		return nil, base + at
	}
	d.joinable -= size
	out, at := joined(b, num)
	return out, base + at
}

// occurrences are the values of a length-delimited field, and their offsets.
func occurrences(b []byte, num protowire.Number) func(yield func([]byte, int) bool) {
	return func(yield func([]byte, int) bool) {
		for off := 0; off < len(b); {
			n2, typ, n := protowire.ConsumeTag(b[off:])
			off += n
			if n2 != num {
				off += protowire.ConsumeFieldValue(n2, typ, b[off:])
				continue
			}
			v, n := protowire.ConsumeBytes(b[off:])
			if !yield(v, off+n-len(v)) {
				return
			}
			off += n
		}
	}
}

// joined is every value of a length-delimited field, joined; at is the
// first's offset, the best place an error inside can name.
func joined(b []byte, num protowire.Number) (out []byte, at int) {
	at = -1
	for v, vat := range occurrences(b, num) {
		if at < 0 {
			at = vat
		}
		out = append(out, v...)
	}
	return out, at
}

// event writes an event: "type", base_event's members, its own.
func (d *decoder) event(m *message, b []byte, at int) error {
	var s scanned
	if err := s.scan(m, b, at); err != nil {
		return err
	}
	if s.last[1].n == 0 {
		return bad(at, "base_event", "absent: every event carries one")
	}
	var base scanned
	bb, bat := d.merged(&s, 1)
	if err := base.scan(baseEvent, bb, bat); err != nil {
		return within(err, "base_event")
	}
	if got := int32(base.last[1].v); got != eventNumbers[m.typ] {
		return bad(base.last[1].at, "base_event.type", typeName(got)+", in an event of type "+m.typ)
	}
	if err := d.open('{'); err != nil {
		return err
	}
	d.out = append(d.out, `"type":"`...)
	d.out = append(d.out, m.typ...)
	d.out = append(d.out, '"')
	if err := d.members(&base); err != nil {
		return within(err, "base_event")
	}
	if err := d.members(&s); err != nil {
		return err
	}
	var err error
	switch m.shape {
	case runFinished:
		err = d.runOutcome(&s)
	case subagentFinished:
		err = d.subagentOutcome(&s)
	case toolResult:
		err = d.toolResultContent(&s)
	}
	if err != nil {
		return err
	}
	d.close('}')
	return nil
}

func typeName(n int32) string {
	for typ, num := range eventNumbers {
		if num == n {
			return typ
		}
	}
	return "EventType " + strconv.Itoa(int(n))
}

// object writes one message as a JSON object.
func (d *decoder) object(m *message, b []byte, at int) error {
	var s scanned
	if err := s.scan(m, b, at); err != nil {
		return err
	}
	if m.shape == oneofSource {
		return d.source(&s)
	}
	if err := d.open('{'); err != nil {
		return err
	}
	if err := d.members(&s); err != nil {
		return err
	}
	if m.shape == chatMessage {
		if err := d.messageContent(&s); err != nil {
			return err
		}
	}
	d.close('}')
	return nil
}

// members writes a member for each field the message's shape leaves to
// the table.
func (d *decoder) members(s *scanned) error {
	for i := range s.m.fields {
		if f := &s.m.fields[i]; !f.byShape {
			if err := d.member(s, f); err != nil {
				return within(err, f.proto)
			}
		}
	}
	return nil
}

func (d *decoder) member(s *scanned, f *field) error {
	o := &s.last[f.num]
	if o.n == 0 && f.kind != text && f.kind != list && f.kind != texts && f.kind != patchOp {
		return nil // absent, and so no member
	}
	mark := len(d.out)
	switch f.kind {
	case text, optText:
		d.name(f.json)
		return d.str(o.b, o.at)
	case optBool:
		d.name(f.json)
		d.out = strconv.AppendBool(d.out, o.v != 0)
	case optInt64:
		i := int64(o.v)
		if i > maxSafe || i < -maxSafe {
			return bad(o.at, "", strconv.FormatInt(i, 10)+" is beyond ±(2^53−1), which a JSON number cannot hold exactly")
		}
		d.name(f.json)
		d.out = strconv.AppendInt(d.out, i, 10)
	case value:
		d.name(f.json)
		b, at := d.merged(s, f.num)
		held, err := d.value(b, at)
		if !held {
			d.out = d.out[:mark] // a Value holding nothing is no member
		}
		return err
	case object:
		d.name(f.json)
		b, at := d.merged(s, f.num)
		return d.structValue(b, at)
	case nested:
		d.name(f.json)
		b, at := d.merged(s, f.num)
		return d.object(f.msg, b, at)
	case list:
		if o.n == 0 && f.omitEmpty {
			return nil
		}
		d.name(f.json)
		return d.list(s, f)
	case texts:
		if o.n == 0 && f.omitEmpty {
			return nil
		}
		d.name(f.json)
		return d.strs(s, f.num)
	case patchOp:
		d.name(f.json)
		if op := int32(o.v); op >= 0 && int(op) < len(opNames) {
			d.out = append(append(append(d.out, '"'), opNames[op]...), '"')
		} else { // a later operation, spelled as @ag-ui/proto spells it: the engine strips it
			d.out = append(strconv.AppendInt(append(d.out, '"'), int64(op), 10), '"')
		}
	}
	return nil
}

// maxSafe is the largest integer a JSON number holds exactly, 2^53−1.
const maxSafe = 1<<53 - 1

func (d *decoder) list(s *scanned, f *field) error {
	if err := d.open('['); err != nil {
		return err
	}
	i := 0
	err := s.each(f.num, func(v []byte, at int) error {
		d.item()
		if err := d.object(f.msg, v, at); err != nil {
			return withinItem(err, i)
		}
		i++
		return nil
	})
	d.close(']')
	return err
}

func (d *decoder) strs(s *scanned, num protowire.Number) error {
	d.out = append(d.out, '[')
	err := s.each(num, func(v []byte, at int) error {
		d.item()
		return d.str(v, at)
	})
	d.out = append(d.out, ']')
	return err
}

// str writes a string. proto3 strings are UTF-8: @ag-ui/proto turns a
// byte that is not into U+FFFD, silently; here it is malformed.
func (d *decoder) str(b []byte, at int) error {
	if !utf8.Valid(b) {
		return bad(at+invalidAt(b), "", "not valid UTF-8, which a proto3 string must be")
	}
	if err := d.room(len(b) + 2); err != nil {
		return err
	}
	d.out = appendQuoted(d.out, b)
	return nil
}

func invalidAt(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return 0
}

// name starts a member; item starts an array's item.
func (d *decoder) name(name string) {
	d.item()
	d.out = append(d.out, '"')
	d.out = append(d.out, name...)
	d.out = append(d.out, '"', ':')
}

func (d *decoder) item() {
	if c := d.out[len(d.out)-1]; c != '{' && c != '[' {
		d.out = append(d.out, ',')
	}
}

// open starts an object or an array, no deeper than the engine reads.
func (d *decoder) open(c byte) error {
	if d.depth++; d.depth > jsonpatch.MaxDepth {
		return bad(0, "", "nested deeper than "+strconv.Itoa(jsonpatch.MaxDepth)+" levels of JSON")
	}
	if err := d.room(1); err != nil {
		return err
	}
	d.out = append(d.out, c)
	return nil
}

func (d *decoder) close(c byte) {
	d.depth--
	d.out = append(d.out, c)
}

func bad(at int, field, reason string) *DecodeError {
	return &DecodeError{Offset: at, Field: field, Reason: reason}
}

func wireError(at int, field string, n int) *DecodeError {
	return bad(at, field, "not protobuf: "+protowire.ParseError(n).Error())
}

func wrongWire(at int, field string, got, want protowire.Type) *DecodeError {
	return bad(at, field, "wire type "+strconv.Itoa(int(got))+" where the schema has "+strconv.Itoa(int(want)))
}

// within names the field an error happened inside: "interrupts[0].id".
func within(err error, field string) error {
	if e, ok := err.(*DecodeError); ok {
		switch {
		case e.Field == "":
			e.Field = field
		case e.Field[0] == '[':
			e.Field = field + e.Field
		default:
			e.Field = field + "." + e.Field
		}
	}
	return err
}

// withinItem names the item of a list an error happened inside.
func withinItem(err error, i int) error {
	if e, ok := err.(*DecodeError); ok {
		item := "[" + strconv.Itoa(i) + "]"
		if e.Field != "" && e.Field[0] != '[' {
			item += "."
		}
		e.Field = item + e.Field
	}
	return err
}
