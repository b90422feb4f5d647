package proto

import (
	"testing"
	"unicode/utf16"
)

func TestIsBinary(t *testing.T) {
	utf16be := func(s string) []byte {
		var b []byte
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u>>8), byte(u))
		}
		return b
	}
	tests := []struct {
		name string
		head []byte
		want bool
	}{
		{"a frame", frame(encoded(t, started)), true},
		{"a frame's length alone", []byte{0, 0, 0, 40}, true},
		{"its first byte alone", []byte{0}, true},
		{"an empty frame", []byte{0, 0, 0, 0, 0, 0, 0, 3}, true},
		{"an arm past 15 (a two-byte tag)", frame(encoded(t, `{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c","content":""}`)), true},
		{"SSE", []byte("data: {\"type\":\"RUN_STARTED\"}\n\n"), false},
		{"an SSE comment", []byte(": keep-alive\n\n"), false},
		{"a JSON script", []byte(`{"name":"x","stream":[]}`), false},
		{"JSON Lines", []byte("{\"type\":\"RUN_STARTED\"}\n"), false},
		{"a UTF-8 BOM", []byte("\uFEFFdata: x\n\n"), false},
		{"UTF-16BE JSON", utf16be(`{"type":1}`), false},
		{"UTF-32BE's BOM", []byte{0, 0, 0xfe, 0xff, 0, 0, 0, '{'}, false},
		{"a reserved wire type", []byte{0, 0, 0, 4, 0x0e}, false},
		{"nothing", nil, false},
	}
	for _, tt := range tests {
		if got := IsBinary(tt.head); got != tt.want {
			t.Errorf("%s: %x: got %v", tt.name, tt.head, got)
		}
	}
}
