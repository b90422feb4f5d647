package proto

import (
	"errors"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// The wire, built field by field.
func bytesField(num protowire.Number, payload ...[]byte) []byte {
	b := protowire.AppendTag(nil, num, protowire.BytesType)
	return protowire.AppendBytes(b, join(payload...))
}

func varint(num protowire.Number, v uint64) []byte {
	return protowire.AppendVarint(protowire.AppendTag(nil, num, protowire.VarintType), v)
}

func join(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// base is a base_event of an event type's number.
func base(typ uint64, more ...[]byte) []byte {
	return bytesField(1, append([][]byte{varint(1, typ)}, more...)...)
}

// Messages that are not AG-UI events: each a *DecodeError naming the
// field, the byte and why.
func TestDecodeRefusesMalformedMessages(t *testing.T) {
	deep := bytesField(stringValue, []byte("x"))
	for range 600 {
		deep = bytesField(listValue, bytesField(1, deep))
	}
	tests := []struct {
		name   string
		msg    []byte
		field  string
		reason string
	}{
		{"field number 0", []byte{0x00, 0x00}, "", "invalid field number"},
		{"an end-group tag with no group", protowire.AppendTag(nil, 40, protowire.EndGroupType), "", "not protobuf"},
		{"wrong wire type", bytesField(2, base(1), varint(2, 1)), "text_message_content.message_id", "wire type 0 where the schema has 2"},
		{"a truncated varint", bytesField(2, bytesField(1, []byte{0x08, 0x80})), "text_message_content.base_event", "unexpected EOF"},
		{"a length past the end", bytesField(2, base(1), []byte{0x12, 0x09, 'a'}), "text_message_content", "unexpected EOF"},
		{"invalid UTF-8", bytesField(2, base(1), bytesField(2, []byte{0xff})), "text_message_content.message_id", "UTF-8"},
		{"invalid UTF-8 in a Struct's key", bytesField(2, base(1, bytesField(4, bytesField(1, bytesField(1, []byte{0xc3}), bytesField(2, varint(1, 0)))))), "text_message_content.base_event.metadata.fields.key", "UTF-8"},
		{"two events", join(bytesField(2, base(1)), bytesField(3, base(2))), "", "two events in one message"},
		{"no base_event", bytesField(2), "text_message_content.base_event", "absent"},
		{"a base_event of another type", bytesField(2, bytesField(1)), "text_message_content.base_event.type", "TEXT_MESSAGE_START, in an event of type TEXT_MESSAGE_CONTENT"},
		{"an unknown field and no event", varint(40, 1), "", "names no event"},
		{"a timestamp beyond 2^53", bytesField(1, bytesField(1, varint(2, 1<<60))), "text_message_start.base_event.timestamp", "beyond"},
		{"NaN", bytesField(7, base(6), bytesField(2, protowire.AppendFixed64(protowire.AppendTag(nil, numberValue, protowire.Fixed64Type), math.Float64bits(math.NaN())))), "state_snapshot.snapshot.number_value", "NaN"},
		{"a content part of two arms", bytesField(22, base(21), bytesField(7, bytesField(1), bytesField(2))), "tool_call_result.content_parts[0]", "two arms"},
		{"tool result content twice", bytesField(22, base(21), bytesField(5, []byte("a")), bytesField(7, bytesField(1))), "tool_call_result.content", "content_parts"},
		{"a user message with string and parts", bytesField(9, base(8), bytesField(2, bytesField(2, []byte("user")), bytesField(3, []byte("a")), bytesField(8, bytesField(1)))), "messages_snapshot.messages[0]", "content beside content_parts"},
		{"an assistant message with parts", bytesField(9, base(8), bytesField(2, bytesField(2, []byte("assistant")), bytesField(8, bytesField(1)))), "messages_snapshot.messages[0]", "content_parts, for a role that has none"},
		{"a later role with two contents", bytesField(9, base(8), bytesField(2, bytesField(2, []byte("narrator")), bytesField(3, []byte("a")), bytesField(13))), "messages_snapshot.messages[0]", "more than one"},
		{"nested past the engine's depth", bytesField(7, base(6), bytesField(2, deep)), "", "nested deeper than 512"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Decode(tt.msg)
			var de *DecodeError
			if !errors.As(err, &de) || !errors.Is(err, ErrMalformed) {
				t.Fatalf("got %s, %v", out, err)
			}
			if !strings.HasPrefix(de.Field, tt.field) || !strings.Contains(de.Reason, tt.reason) {
				t.Errorf("got %v; want field %q, reason with %q", err, tt.field, tt.reason)
			}
			if de.Offset < 0 || de.Offset > len(tt.msg) {
				t.Errorf("offset %d outside the message", de.Offset)
			}
		})
	}
}

// An event from a later protocol is its own error, that a reader can skip.
func TestDecodeTellsALaterEventFromBrokenBytes(t *testing.T) {
	later := bytesField(40, varint(1, 7))
	_, err := Decode(join(later, varint(41, 1)))
	var ue *UnknownEventError
	if !errors.As(err, &ue) || !errors.Is(err, ErrUnknownEvent) || len(ue.Arms) != 1 || ue.Arms[0] != 40 {
		t.Errorf("an unknown arm: %v", err)
	}
	if _, err := Decode(bytesField(40, []byte{0x0a, 0x09})); !errors.Is(err, ErrMalformed) {
		t.Errorf("an unknown arm that is not a message: %v", err)
	}
	if out, err := Decode(join(bytesField(2, base(1)), later)); err != nil || string(out) != `{"type":"TEXT_MESSAGE_CONTENT","messageId":"","delta":""}` {
		t.Errorf("an unknown field beside an event is skipped: %s, %v", out, err)
	}
}

// What protobuf leaves to the reader, read as @ag-ui/proto 1.0.0 reads it.
func TestDecodeAsProtobufMerges(t *testing.T) {
	tests := []struct {
		name string
		msg  []byte
		want string
	}{
		{"an arm given twice merges", join(bytesField(2, base(1), bytesField(2, []byte("a"))), bytesField(2, bytesField(3, []byte("b")))),
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a","delta":"b"}`},
		{"the last scalar wins", bytesField(2, base(1), bytesField(2, []byte("a")), bytesField(2, []byte("b"))),
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"b","delta":""}`},
		{"a Value keeps its last kind", bytesField(7, base(6), bytesField(2, bytesField(stringValue, []byte("s")), varint(boolValue, 1))),
			`{"type":"STATE_SNAPSHOT","snapshot":true}`},
		{"a list given twice in a row merges", bytesField(7, base(6), bytesField(2, bytesField(listValue, bytesField(1, varint(boolValue, 1))), bytesField(listValue, bytesField(1, varint(nullValue, 0))))),
			`{"type":"STATE_SNAPSHOT","snapshot":[true,null]}`},
		{"a Struct keeps a key's last value", bytesField(7, base(6), bytesField(2, bytesField(structValue,
			bytesField(1, bytesField(1, []byte("k")), bytesField(2, varint(boolValue, 0))),
			bytesField(1, bytesField(1, []byte("k")), bytesField(2, varint(boolValue, 1)))))),
			`{"type":"STATE_SNAPSHOT","snapshot":{"k":true}}`},
		{"a Value holding nothing is no member", bytesField(7, base(6), bytesField(2)),
			`{"type":"STATE_SNAPSHOT"}`},
		{"and null in a list", bytesField(7, base(6), bytesField(2, bytesField(listValue, bytesField(1)))),
			`{"type":"STATE_SNAPSHOT","snapshot":[null]}`},
		{"a patch op with no name is its number", bytesField(8, base(7), bytesField(2, varint(1, 9))),
			`{"type":"STATE_DELTA","delta":[{"op":"9","path":""}]}`},
		{"no outcome keeps what rides with it at the top", bytesField(13, base(12), bytesField(8, []byte("c1"))),
			`{"type":"RUN_FINISHED","threadId":"","runId":"","pendingToolCallIds":["c1"]}`},
		{"an interrupt outcome lists its interrupts, if none", bytesField(13, base(12), bytesField(5, []byte("interrupt"))),
			`{"type":"RUN_FINISHED","threadId":"","runId":"","outcome":{"type":"interrupt","interrupts":[]}}`},
		{"a content part of no known arm is dropped", bytesField(22, base(21), bytesField(7, varint(9, 1)), bytesField(7, bytesField(1, bytesField(1, []byte("t"))))),
			`{"type":"TOOL_CALL_RESULT","messageId":"","toolCallId":"","content":[{"type":"text","text":"t"}]}`},
		{"numbers as JavaScript writes them", bytesField(7, base(6), bytesField(2, bytesField(listValue,
			bytesField(1, protowire.AppendFixed64(protowire.AppendTag(nil, numberValue, protowire.Fixed64Type), math.Float64bits(1e21))),
			bytesField(1, protowire.AppendFixed64(protowire.AppendTag(nil, numberValue, protowire.Fixed64Type), math.Float64bits(1.5e-7))),
			bytesField(1, protowire.AppendFixed64(protowire.AppendTag(nil, numberValue, protowire.Fixed64Type), math.Float64bits(math.Copysign(0, -1))))))),
			`{"type":"STATE_SNAPSHOT","snapshot":[1e+21,1.5e-7,0]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if out, err := Decode(tt.msg); err != nil || string(out) != tt.want {
				t.Errorf("got %s, %v\nwant %s", out, err, tt.want)
			}
		})
	}
}

// A message field given twice at each of many levels, each merge copying
// all below it, costs a few times the frame: merging may copy eight times
// the frame, at least 1 MiB, in all, and past it the frame is malformed,
// said at the field's byte. (Unbounded, a 4 MiB frame 250 levels deep held
// 2 GB.) Two encodings of one event concatenated, which protobuf reads as
// one, still merge.
func TestMergingCopiesAtMostTheFrame(t *testing.T) {
	v := join(bytesField(structValue), bytesField(structValue, bytesField(9, make([]byte, 64<<10)))) // a Struct given twice, the second with an unknown field
	for range 250 {
		entry := join(bytesField(1, []byte("k")), bytesField(2), bytesField(2, v)) // the entry's value given twice
		v = join(bytesField(structValue), bytesField(structValue, bytesField(1, entry)))
	}
	msg := bytesField(7, base(6), bytesField(2, v)) // STATE_SNAPSHOT
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Decode(msg)
	runtime.ReadMemStats(&after)
	var de *DecodeError
	// Placed in the frame, some levels in (not at the offset inside the
	// merged field, a few bytes from the start).
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "past what merging them may copy") || de.Offset < 50 || de.Offset > len(msg) {
		t.Errorf("%v", err)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 2<<20 {
		t.Errorf("decoding a %d-byte frame allocated %d bytes", len(msg), allocated)
	}
	event := `{"type":"CUSTOM","name":"n","value":{"a":{"b":[{"c":"` + strings.Repeat("x", 100) + `"}]}}}`
	one, err := Encode([]byte(event))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Decode(append(slices.Clip(one), one...)); err != nil || string(got) != event {
		t.Errorf("one encoding twice: %s %v", got, err)
	}
	// One field given twice, as protobuf allows, still merges.
	once := bytesField(7, base(6), bytesField(2, join(bytesField(structValue), bytesField(structValue, bytesField(1, join(bytesField(1, []byte("k")), bytesField(2, varint(boolValue, 1))))))))
	if got, err := Decode(once); err != nil || string(got) != `{"type":"STATE_SNAPSHOT","snapshot":{"k":true}}` {
		t.Errorf("%s %v", got, err)
	}
}

// A Struct of many tiny entries costs some ten times its bytes, not thirty
// (a map of its keys made a string of each), and keeps each key's
// last value, in that value's place, however many entries it has.
func TestAWideStructCostsLittleMoreThanItsFrame(t *testing.T) {
	entry := func(key string, v uint64) []byte {
		return bytesField(1, join(bytesField(1, []byte(key)), bytesField(2, varint(boolValue, v))))
	}
	var fields []byte
	for i := range 100_000 {
		fields = append(fields, entry(strconv.Itoa(i), 1)...)
	}
	msg := bytesField(7, base(6), bytesField(2, bytesField(structValue, fields)))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Decode(msg)
	runtime.ReadMemStats(&after)
	if allocated := after.TotalAlloc - before.TotalAlloc; err != nil || allocated > 16*uint64(len(msg)) {
		t.Errorf("decoding a %d-byte Struct allocated %d bytes: %v", len(msg), allocated, err)
	}
	for _, n := range []int{3, 40} { // the few, read pairwise; the many, sorted
		fields := entry("a", 0)
		for i := range n {
			fields = append(fields, entry("k"+strconv.Itoa(i), 0)...)
		}
		fields = append(fields, entry("a", 1)...)
		got, err := Decode(bytesField(7, base(6), bytesField(2, bytesField(structValue, fields))))
		if err != nil || !strings.HasSuffix(string(got), `,"k`+strconv.Itoa(n-1)+`":false,"a":true}}`) || strings.Count(string(got), `"a"`) != 1 {
			t.Errorf("%d entries: %s %v", n+2, got, err)
		}
	}
}
