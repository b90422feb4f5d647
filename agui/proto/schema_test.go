package proto

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// protoField is a field line of agui.proto.
type protoField struct {
	label, typ, name string
	num              int
}

// readProto reads agui.proto's messages (nested ones as Outer.Inner),
// their fields, oneofs included, and its enums' values.
func readProto(t *testing.T) (messages map[string][]protoField, enums map[string]map[string]int) {
	t.Helper()
	data, err := os.ReadFile("agui.proto")
	if err != nil {
		t.Fatal(err)
	}
	messages, enums = map[string][]protoField{}, map[string]map[string]int{}
	fieldLine := regexp.MustCompile(`^(optional |repeated )?([\w.]+) (\w+) = (\d+);`)
	enumLine := regexp.MustCompile(`^(\w+) = (\d+);`)
	var scope []string // the blocks the line is in: "message X", "enum Y", "oneof z"
	for line := range strings.Lines(string(data)) {
		line, _, _ = strings.Cut(line, "//")
		line = strings.TrimSpace(line)
		open := func(kind string) bool {
			rest, ok := strings.CutPrefix(line, kind+" ")
			if ok {
				scope = append(scope, kind+" "+strings.TrimSuffix(rest, " {"))
			}
			return ok
		}
		switch {
		case line == "}":
			scope = scope[:len(scope)-1]
		case open("message"), open("enum"), open("oneof"):
		case len(scope) > 0:
			var names []string
			for _, s := range scope {
				if name, ok := strings.CutPrefix(s, "message "); ok {
					names = append(names, name)
				}
			}
			if enum, ok := strings.CutPrefix(scope[len(scope)-1], "enum "); ok {
				if m := enumLine.FindStringSubmatch(line); m != nil {
					if enums[enum] == nil {
						enums[enum] = map[string]int{}
					}
					enums[enum][m[1]], _ = strconv.Atoi(m[2])
				}
			} else if m := fieldLine.FindStringSubmatch(line); m != nil {
				num, _ := strconv.Atoi(m[4])
				msg := strings.Join(names, ".")
				messages[msg] = append(messages[msg], protoField{strings.TrimSpace(m[1]), m[2], m[3], num})
			}
		}
	}
	return messages, enums
}

// schema.go holds the schema agui.proto writes down: the same messages,
// fields, numbers and types, the same enums.
func TestSchemaIsAguiProto(t *testing.T) {
	messages, enums := readProto(t)
	seen := map[string]bool{}
	var check func(m *message)
	check = func(m *message) {
		if seen[m.name] {
			return
		}
		seen[m.name] = true
		want := messages[m.name]
		if len(want) != len(m.fields) {
			t.Errorf("%s: %d fields in schema.go, %d in agui.proto", m.name, len(m.fields), len(want))
		}
		for _, pf := range want {
			f := m.field(protowireNumber(pf.num))
			if f == nil || f.proto != pf.name {
				t.Errorf("%s.%s = %d: not in schema.go", m.name, pf.name, pf.num)
				continue
			}
			if got := typeOf(f); got != strings.TrimSpace(pf.label+" "+pf.typ) {
				t.Errorf("%s.%s: %q in schema.go, %q in agui.proto", m.name, pf.name, got, strings.TrimSpace(pf.label+" "+pf.typ))
			}
			if f.msg != nil {
				check(f.msg)
			}
		}
	}
	for _, arm := range messages["Event"] {
		m := events[protowireNumber(arm.num)]
		if m == nil || m.name != arm.typ || strings.ToLower(m.typ) != arm.name {
			t.Errorf("Event.%s = %d: not an arm in schema.go", arm.name, arm.num)
			continue
		}
		if enums["EventType"][m.typ] != int(eventNumbers[m.typ]) {
			t.Errorf("EventType.%s: %d in schema.go", m.typ, eventNumbers[m.typ])
		}
		check(m)
	}
	if len(events) != len(messages["Event"]) || len(enums["EventType"]) != len(events) {
		t.Errorf("%d arms in schema.go; agui.proto has %d arms and %d event types", len(events), len(messages["Event"]), len(enums["EventType"]))
	}
	for name, num := range enums["JsonPatchOperationType"] {
		if num >= len(opNames) || opNames[num] != strings.ToLower(name) {
			t.Errorf("JsonPatchOperationType.%s = %d: not in schema.go", name, num)
		}
	}
	for name := range messages {
		if name != "Event" && !seen[name] {
			t.Errorf("agui.proto's %s: no event reaches it in schema.go", name)
		}
	}
	for m := range seen {
		if len(messages[m]) > maxFields-1 {
			t.Errorf("%s has more than the %d fields a scan holds", m, maxFields-1)
		}
	}
}

// typeOf is a field's type as agui.proto writes it.
func typeOf(f *field) string {
	switch f.kind {
	case text:
		return "string"
	case optText:
		return "optional string"
	case optBool:
		return "optional bool"
	case optInt64:
		return "optional int64"
	case value:
		return "google.protobuf.Value"
	case object:
		return "google.protobuf.Struct"
	case texts:
		return "repeated string"
	case list:
		return "repeated " + localName(f.msg.name)
	case patchOp:
		return "JsonPatchOperationType"
	case eventType:
		return "EventType"
	}
	return localName(f.msg.name)
}

// localName is how a message names a message nested in its own.
func localName(name string) string {
	if outer, inner, ok := strings.Cut(name, "."); ok && outer == "ToolCall" {
		return inner
	}
	return name
}

func protowireNumber(n int) protowire.Number { return protowire.Number(n) }
