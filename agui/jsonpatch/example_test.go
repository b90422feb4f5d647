package jsonpatch_test

import (
	"fmt"
	"log"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// A patch applies whole or not at all: the second patch's first operation
// would apply, but its second cannot, so nothing changes.
func ExampleApply() {
	doc, err := jsonpatch.Decode([]byte(`{"services":[{"name":"API","p95":60},{"name":"Auth","p95":35}]}`))
	if err != nil {
		log.Fatal(err)
	}
	spike, err := jsonpatch.DecodeOps([]byte(`[{"op":"replace","path":"/services/0/p95","value":145}]`))
	if err != nil {
		log.Fatal(err)
	}
	doc, perr := jsonpatch.Apply(doc, spike, 1<<20)
	fmt.Println(string(jsonpatch.Encode(doc)), perr == nil)

	broken, err := jsonpatch.DecodeOps([]byte(`[
		{"op":"replace","path":"/services/1/p95","value":40},
		{"op":"replace","path":"/services/7/p95","value":41}]`))
	if err != nil {
		log.Fatal(err)
	}
	after, perr := jsonpatch.Apply(doc, broken, 1<<20)
	fmt.Println(string(jsonpatch.Encode(after)))
	fmt.Println(perr) // operations are numbered from 0, as sent
	// Output:
	// {"services":[{"name":"API","p95":145},{"name":"Auth","p95":35}]} true
	// {"services":[{"name":"API","p95":145},{"name":"Auth","p95":35}]}
	// operation 1 (replace /services/7/p95): the path does not exist
}
