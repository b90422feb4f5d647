package jsonpatch

import (
	"slices"
	"testing"
)

// Member names a Reader has seen are kept and shared; escaped ones are
// read anew, and a name is what it says whichever way it came.
func TestNamesAreReadWhicheverWayTheyCome(t *testing.T) {
	for range 3 { // the pooled Reader knows the names after the first
		v, err := Decode([]byte(`{"threadId":1,"thread\u0049d2":2,"a\"b":3,"":4,"x":[],"y":{}}`))
		if err != nil {
			t.Fatal(err)
		}
		o := v.(*Object)
		if got := o.Names(); !slices.Equal(got, []string{"threadId", "threadId2", `a"b`, "", "x", "y"}) {
			t.Fatalf("names %q", got)
		}
		if string(Encode(v)) != `{"threadId":1,"threadId2":2,"a\"b":3,"":4,"x":[],"y":{}}` {
			t.Errorf("encoded %s", Encode(v))
		}
	}
	if _, err := Decode([]byte(`{"a":1,"\u0061":2}`)); err == nil {
		t.Error("a name given twice, once escaped, was accepted")
	}
}
