package core

import (
	"math"
	"strings"
	"testing"
)

func TestDecodeWire(t *testing.T) {
	valid := `{"id":"api","name":"API","series":"Core","volume":1200,"latency":60}`
	service := func(fields string) string { return `{"services":[{` + fields + `}]}` }
	tests := []struct {
		name, json string
		reason     string // "" when valid
	}{
		{"one service", `{"services":[` + valid + `]}`, ""},
		{"empty list", `{"services":[]}`, ""},
		{"zero values are measurements", service(`"id":"x","name":"X","series":"Platform","volume":0,"latency":0`), ""},
		{"fields in any order", service(`"latency":1,"volume":2,"series":"Core","name":"N","id":"i"`), ""},
		{"no services", `{}`, "services: is required"},
		{"null services", `{"services":null}`, "services: must be an array, not null"},
		{"unknown top key", `{"services":[],"extra":1}`, `the state: unknown key "extra"`},
		{"case variant of services", `{"Services":[]}`, `the state: unknown key "Services"`},
		{"services twice", `{"services":[],"services":[]}`, `the state: duplicate key "services"`},
		{"unknown service key", service(`"id":"x","name":"X","series":"Core","volume":1,"latency":1,"owner":"me"`), `services[0]: unknown key "owner"`},
		{"case variant of a field", service(`"id":"x","name":"X","series":"Core","volume":1,"latency":1,"Latency":2`), `services[0]: unknown key "Latency"`},
		{"a long s that encoding/json folds", service(`"id":"x","name":"X","ſeries":"Core","volume":1,"latency":1`), `services[0]: unknown key "ſeries"`},
		{"a field twice", service(`"id":"x","name":"X","series":"Core","volume":1,"latency":1,"latency":2`), `services[0]: duplicate key "latency"`},
		{"trailing data", `{"services":[]} {}`, "data after the JSON value"},
		{"not an object", `[]`, "the state: must be an object, not an array"},
		{"broken JSON", `{"services":[`, "malformed JSON"},
		{"string number", service(`"id":"x","name":"X","series":"Core","volume":"1","latency":1`), "services[0].volume: must be a number, not a string"},
		{"null number", service(`"id":"x","name":"X","series":"Core","volume":null,"latency":1`), "services[0].volume: must be a number, not null"},
		{"null string", service(`"id":null,"name":"X","series":"Core","volume":1,"latency":1`), "services[0].id: must be a string, not null"},
		{"huge number", service(`"id":"x","name":"X","series":"Core","volume":1e400,"latency":1`), "services[0].volume: must be a finite number"},
		{"a number a float64 rounds", service(`"id":"x","name":"X","series":"Core","volume":9007199254740993,"latency":1`), "services[0].volume: must be a number a float64 holds: 9007199254740993 reads as 9007199254740992"},
		{"a decimal a float64 rounds", service(`"id":"x","name":"X","series":"Core","volume":1,"latency":0.10000000000000000555111512312578270211815834045410156251`), "services[0].latency: must be a number a float64 holds"},
		{"a decimal a float64 reads back", service(`"id":"x","name":"X","series":"Core","volume":0.1,"latency":12.500000000000000000`), ""},
		{"a number a float64 reads as 0", service(`"id":"x","name":"X","series":"Core","volume":1,"latency":1e-400`), "services[0].latency: must be a number a float64 holds: 1e-400 reads as 0"},
		{"a number a float64 holds but coarsely", service(`"id":"x","name":"X","series":"Core","volume":1,"latency":2.5e-324`), "services[0].latency: must be a number a float64 holds: 2.5e-324 reads as 5e-324"},
		{"zero written long", service(`"id":"x","name":"X","series":"Core","volume":0.000e-5,"latency":1`), ""},
		{"an integer past 2^53 a float64 holds", service(`"id":"x","name":"X","series":"Core","volume":9007199254740994,"latency":1e22`), ""},
		{"null service", `{"services":[null]}`, "services[0]: must be an object, not null"},
		{"missing latency", service(`"id":"x","name":"X","series":"Core","volume":1`), "services[0].latency: is required"},
		{"blank id", service(`"id":"  ","name":"X","series":"Core","volume":1,"latency":1`), "services[0].id: must not be blank"},
		{"separator-only id", service(`"id":"\u001c\u001f","name":"X","series":"Core","volume":1,"latency":1`), "services[0].id: must not be blank"},
		{"empty name", service(`"id":"x","name":"","series":"Core","volume":1,"latency":1`), "services[0].name: is required"},
		{"64-character id", service(`"id":"` + strings.Repeat("é", 64) + `","name":"X","series":"Core","volume":1,"latency":1`), ""},
		{"65-character id", service(`"id":"` + strings.Repeat("é", 65) + `","name":"X","series":"Core","volume":1,"latency":1`), "services[0].id: must be at most 64 characters"},
		{"unknown series", service(`"id":"x","name":"X","series":"Edge","volume":1,"latency":1`), `services[0].series: must be one of Core, Platform, got "Edge"`},
		{"lowercase series", service(`"id":"x","name":"X","series":"core","volume":1,"latency":1`), `got "core"`},
		{"negative volume", service(`"id":"x","name":"X","series":"Core","volume":-1,"latency":1`), "services[0].volume: must be at least 0"},
		{"negative latency", service(`"id":"x","name":"X","series":"Core","volume":1,"latency":-0.5`), "services[0].latency: must be at least 0"},
		{"negative zero is zero", service(`"id":"x","name":"X","series":"Core","volume":-0,"latency":1`), ""},
		{"every field at once", service(`"id":"","name":" ","series":"Edge","volume":-2,"latency":-1`),
			`services[0].id: is required; services[0].name: must not be blank; services[0].series: must be one of Core, Platform, got "Edge"; services[0].volume: must be at least 0; services[0].latency: must be at least 0`},
		{"invalid UTF-8", "{\"services\":[{\"id\":\"\xff\",\"name\":\"X\",\"series\":\"Core\",\"volume\":1,\"latency\":1}]}", "malformed JSON"},
		{"duplicate id", `{"services":[` + valid + `,` + strings.Replace(valid, "API", "Other", 1) + `]}`, `services[1].id: "api" duplicates services[0]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := DecodeWire([]byte(tt.json))
			switch {
			case tt.reason == "" && err != nil:
				t.Fatalf("rejected: %v", err)
			case tt.reason != "" && err == nil:
				t.Fatalf("accepted, want %q", tt.reason)
			case tt.reason != "" && !strings.Contains(err.Error(), tt.reason):
				t.Fatalf("reason %q, want %q", err, tt.reason)
			case tt.name == "negative zero is zero" && math.Signbit(w.At(0).Volume):
				t.Errorf("kept a negative zero")
			}
		})
	}
}

func TestValidateRejectsNonFinite(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		services := initialWire().Services()
		services[1].Latency = v
		if err := NewWire(services).Validate(); err == nil || !strings.Contains(err.Error(), "services[1].latency: must be a finite number") {
			t.Errorf("latency %v: %v", v, err)
		}
	}
}
