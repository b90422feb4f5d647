package catalogue

import (
	"reflect"
	"testing"
)

func TestEncodeDecode(t *testing.T) {
	c := Catalogue{
		{Name: "normal", Group: Demo, Description: "A run.", ThisDemo: "Shows it."},
		{Name: "tilde", Group: Fatal, Description: "A ~.", Rule: Citation{Page: "basic/processing", Quote: `"MUST" <b>`}, Must: "Reject."},
		{Name: "mine", Group: File, Description: "From a file."},
	}
	got, err := Decode(c.Encode())
	if err != nil || !reflect.DeepEqual(got, c) {
		t.Fatalf("%v %+v", err, got)
	}
	if e, ok := got.Lookup("tilde"); !ok || e.Rule.Quote != `"MUST" <b>` {
		t.Errorf("lookup %+v %v", e, ok)
	}
	if _, ok := got.Lookup("absent"); ok {
		t.Error("found an absent name")
	}
	if in := got.In(File); len(in) != 1 || in[0].Name != "mine" {
		t.Errorf("in File: %+v", in)
	}
	if _, err := Decode(`{"name":1}`); err == nil {
		t.Error("decoded an object as a catalogue")
	}
}
