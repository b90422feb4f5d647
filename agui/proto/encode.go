package proto

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// Encode writes an event's AG-UI JSON as an Event message. It refuses,
// with an *EncodeError naming the member (ErrCannotCarry), an event the
// binary schema cannot carry faithfully: for every event it accepts,
// Decode gives back the same JSON, member order aside.
func Encode(event []byte) ([]byte, error) { return AppendEncode(nil, event) }

// AppendEncode is Encode appending to dst; on an error dst is returned as
// it was.
func AppendEncode(dst, event []byte) ([]byte, error) {
	root, err := parseJSON(event)
	if err != nil {
		return dst, cannot("", "not one JSON value: "+err.Error())
	}
	if root.kind != '{' {
		return dst, cannot("", root.what()+", not an object")
	}
	t := root.get("type")
	if t == nil || t.kind != '"' {
		return dst, cannot("/type", "absent or not a string: the Event oneof's arm is the event's type")
	}
	arm, ok := eventArms[t.text]
	if !ok {
		return dst, cannot("/type", strconv.Quote(t.text)+", which no arm of the Event oneof carries")
	}
	out, err := appendMessage(dst, arm, func(b []byte) ([]byte, error) {
		return encodeEvent(b, events[arm], root)
	})
	if err != nil {
		return dst, err
	}
	return out, nil
}

// AppendFrame appends the event as a frame of a binary stream: its
// message's length, 4 bytes big-endian, then the message. A message over
// what a reader with MaxFrameBytes accepts is refused.
func AppendFrame(dst, event []byte) ([]byte, error) {
	start := len(dst)
	out, err := AppendEncode(append(dst, 0, 0, 0, 0), event)
	if err != nil {
		return dst, err
	}
	n := len(out) - start - 4
	if n > MaxFrameBytes-4 {
		return dst, cannot("", strconv.Itoa(n)+" bytes, over the "+strconv.Itoa(MaxFrameBytes)+" a frame may hold")
	}
	binary.BigEndian.PutUint32(out[start:], uint32(n))
	return out, nil
}

// appendMessage appends a length-delimited field whose bytes write
// appends, then puts its length in front of them.
func appendMessage(b []byte, num protowire.Number, write func([]byte) ([]byte, error)) ([]byte, error) {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	start := len(b)
	b, err := write(b)
	if err != nil {
		return b, err
	}
	n := len(b) - start
	k := protowire.SizeVarint(uint64(n))
	b = slices.Grow(b, k)[:len(b)+k]
	copy(b[start+k:], b[start:start+n])
	protowire.AppendVarint(b[start:start], uint64(n))
	return b, nil
}

// encodeEvent writes an event message: base_event from "type",
// "timestamp", "rawEvent" and "metadata", then the event's own members.
func encodeEvent(b []byte, m *message, obj *node) ([]byte, error) {
	b, err := appendMessage(b, 1, func(b []byte) ([]byte, error) {
		if n := eventNumbers[m.typ]; n != 0 {
			b = protowire.AppendTag(b, 1, protowire.VarintType)
			b = protowire.AppendVarint(b, uint64(n))
		}
		return encodeFields(b, baseEvent, obj, "")
	})
	if err != nil {
		return b, err
	}
	if b, err = encodeFields(b, m, obj, ""); err != nil {
		return b, err
	}
	switch m.shape {
	case runFinished:
		b, err = encodeRunOutcome(b, obj)
	case subagentFinished:
		b, err = encodeSubagentOutcome(b, obj)
	case toolResult:
		b, err = encodeToolResultContent(b, obj)
	}
	if err != nil {
		return b, err
	}
	return b, unknownMembers(obj, "", m, baseEvent)
}

// encodeMessage writes one JSON object as a message of the schema.
func encodeMessage(b []byte, m *message, obj *node, ptr string) ([]byte, error) {
	if obj.kind != '{' {
		return b, cannot(ptr, obj.what()+", where the binary schema carries an object")
	}
	switch m.shape {
	case oneofPart, oneofSource:
		return encodeOneof(b, m, obj, ptr)
	}
	b, err := encodeFields(b, m, obj, ptr)
	if err != nil {
		return b, err
	}
	if m.shape == chatMessage {
		if b, err = encodeMessageContent(b, m, obj, ptr); err != nil {
			return b, err
		}
	}
	return b, unknownMembers(obj, ptr, m)
}

// encodeFields writes the fields the message's shape leaves to the table.
func encodeFields(b []byte, m *message, obj *node, ptr string) ([]byte, error) {
	var err error
	for i := range m.fields {
		f := &m.fields[i]
		if f.byShape || f.kind == eventType {
			continue
		}
		if b, err = encodeField(b, f, obj.get(f.json), ptr+"/"+f.json); err != nil {
			return b, err
		}
	}
	return b, nil
}

// unknownMembers refuses a member none of the messages has a field for:
// over SSE the engine strips such a member with a warning; here it would
// vanish without one.
func unknownMembers(obj *node, ptr string, ms ...*message) error {
	for _, mb := range obj.members {
		if mb.name == "type" && ptr == "" || known(mb.name, ms) {
			continue
		}
		return cannot(ptr+"/"+jsonpatch.EscapeToken(mb.name), "a member the binary schema has no field for")
	}
	return nil
}

func known(name string, ms []*message) bool {
	for _, m := range ms {
		if m.member(name) != nil {
			return true
		}
	}
	return false
}

// encodeField writes one member, v, nil when absent, as field f.
func encodeField(b []byte, f *field, v *node, ptr string) ([]byte, error) {
	if v == nil {
		switch {
		case f.kind == text:
			return b, cannot(ptr, `absent, but the binary schema always carries it: it would read back as ""`)
		case f.kind == patchOp:
			return b, cannot(ptr, `absent, but the binary schema always carries it: it would read back as "add"`)
		case (f.kind == list || f.kind == texts) && !f.omitEmpty:
			return b, cannot(ptr, "absent, but the binary schema always carries it: it would read back as []")
		}
		return b, nil
	}
	switch f.kind {
	case text, optText:
		if v.kind != '"' {
			return b, cannot(ptr, v.what()+", where the binary schema carries a string")
		}
		if v.text != "" || f.kind == optText { // proto3 leaves out a plain string's ""
			b = protowire.AppendTag(b, f.num, protowire.BytesType)
			b = protowire.AppendString(b, v.text)
		}
	case optBool:
		if v.kind != 't' && v.kind != 'f' {
			return b, cannot(ptr, v.what()+", where the binary schema carries a boolean")
		}
		b = protowire.AppendTag(b, f.num, protowire.VarintType)
		b = protowire.AppendVarint(b, protowire.EncodeBool(v.kind == 't'))
	case optInt64:
		i, err := safeInteger(v)
		if err != nil {
			return b, cannot(ptr, err.Error())
		}
		b = protowire.AppendTag(b, f.num, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(i))
	case value:
		return appendMessage(b, f.num, func(b []byte) ([]byte, error) { return encodeValue(b, v, ptr) })
	case object:
		if v.kind != '{' {
			return b, cannot(ptr, v.what()+", where the binary schema carries an object")
		}
		return appendMessage(b, f.num, func(b []byte) ([]byte, error) { return encodeStruct(b, v, ptr) })
	case nested:
		return appendMessage(b, f.num, func(b []byte) ([]byte, error) { return encodeMessage(b, f.msg, v, ptr) })
	case list, texts:
		return encodeList(b, f, v, ptr)
	case patchOp:
		op, err := opNumber(v)
		if err != nil {
			return b, cannot(ptr, err.Error())
		}
		if op != 0 {
			b = protowire.AppendTag(b, f.num, protowire.VarintType)
			b = protowire.AppendVarint(b, uint64(int64(op)))
		}
	}
	return b, nil
}

// encodeList writes an array as a repeated field, of messages or strings.
func encodeList(b []byte, f *field, v *node, ptr string) ([]byte, error) {
	if v.kind != '[' {
		return b, cannot(ptr, v.what()+", where the binary schema carries an array")
	}
	if len(v.items) == 0 && f.omitEmpty {
		return b, cannot(ptr, "empty, which the binary schema cannot tell from absent: it would read back without it")
	}
	var err error
	for i, item := range v.items {
		at := ptr + "/" + strconv.Itoa(i)
		if f.kind == texts {
			if item.kind != '"' {
				return b, cannot(at, item.what()+", where the binary schema carries a string")
			}
			b = protowire.AppendTag(b, f.num, protowire.BytesType)
			b = protowire.AppendString(b, item.text)
			continue
		}
		if b, err = appendMessage(b, f.num, func(b []byte) ([]byte, error) { return encodeMessage(b, f.msg, item, at) }); err != nil {
			return b, err
		}
	}
	return b, nil
}

// opNumber is a patch operation's JsonPatchOperationType: one of RFC 6902's
// names, or the decimal spelling Decode gives a number it has no name for.
func opNumber(v *node) (int32, error) {
	if v.kind != '"' {
		return 0, errors.New(v.what() + ", where the binary schema carries an operation's name")
	}
	if i := slices.Index(opNames, v.text); i >= 0 {
		return int32(i), nil
	}
	n, err := strconv.ParseInt(v.text, 10, 32)
	if err != nil || strconv.Itoa(int(n)) != v.text || n >= 0 && int(n) < len(opNames) {
		return 0, errors.New(strconv.Quote(v.text) + ", an operation JsonPatchOperationType has no number for")
	}
	return int32(n), nil
}

// safeInteger is a JSON number an int64 field holds and gives back: an
// integer within ±(2^53−1).
func safeInteger(v *node) (int64, error) {
	if v.kind != '0' {
		return 0, errors.New(v.what() + ", where the binary schema carries an integer")
	}
	f, err := strconv.ParseFloat(v.text, 64)
	if err != nil || f != math.Trunc(f) || !sameNumber(v.text, string(appendNumber(nil, f))) {
		return 0, errors.New(v.text + ", where the binary schema carries an integer")
	}
	if math.Abs(f) > maxSafe {
		return 0, errors.New(v.text + " is beyond ±(2^53−1), which a JSON number cannot hold exactly")
	}
	return int64(f), nil
}

func cannot(ptr, reason string) *EncodeError { return &EncodeError{Pointer: ptr, Reason: reason} }
