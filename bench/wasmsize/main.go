// Command wasmsize says what a Go wasm binary is made of: the bytes of
// function code per Go package, from the binary's name section (build it
// without -ldflags=-s), largest first, with their share of all code.
//
//	GOOS=js GOARCH=wasm go build -o /tmp/app.wasm ./wasm && go run ./bench/wasmsize /tmp/app.wasm
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize app.wasm")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	shares, total, err := packages(data)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintf(w, "%d bytes of code in %d packages (the binary: %d bytes)\n", total, len(shares), len(data))
	for _, s := range shares {
		fmt.Fprintf(w, "%9d  %5.1f%%  %s\n", s.bytes, 100*float64(s.bytes)/float64(total), s.pkg)
	}
}

type share struct {
	pkg   string
	bytes int
}

// packages sums each function's body size by its package.
func packages(data []byte) ([]share, int, error) {
	if len(data) < 8 || !bytes.Equal(data[:4], []byte("\x00asm")) {
		return nil, 0, errors.New("not a wasm binary")
	}
	r := bytes.NewReader(data[8:])
	var imported int
	var bodies []int
	names := map[int]string{}
	for r.Len() > 0 {
		id, _ := r.ReadByte()
		size, err := uleb(r)
		if err != nil {
			return nil, 0, err
		}
		section := make([]byte, size)
		if _, err := io.ReadFull(r, section); err != nil {
			return nil, 0, err
		}
		s := bytes.NewReader(section)
		switch id {
		case 2: // imports: functions among them take the first indices
			n, _ := uleb(s)
			for range n {
				skipName(s)
				skipName(s)
				kind, _ := s.ReadByte()
				switch kind {
				case 0:
					uleb(s)
					imported++
				case 1:
					s.ReadByte()
					limits(s)
				case 2:
					limits(s)
				case 3:
					s.ReadByte()
					s.ReadByte()
				}
			}
		case 10: // code
			n, _ := uleb(s)
			for range n {
				size, _ := uleb(s)
				bodies = append(bodies, int(size))
				s.Seek(int64(size), io.SeekCurrent)
			}
		case 0: // custom: the name section's function names
			name := readName(s)
			if name != "name" {
				continue
			}
			for s.Len() > 0 {
				sub, _ := s.ReadByte()
				size, _ := uleb(s)
				if sub != 1 {
					s.Seek(int64(size), io.SeekCurrent)
					continue
				}
				n, _ := uleb(s)
				for range n {
					idx, _ := uleb(s)
					names[int(idx)] = readName(s)
				}
			}
		}
	}
	if len(names) == 0 {
		return nil, 0, errors.New("no function names: build without -ldflags=-s")
	}
	sums := map[string]int{}
	total := 0
	for i, size := range bodies {
		sums[pkgOf(names[imported+i])] += size
		total += size
	}
	var out []share
	for pkg, n := range sums {
		out = append(out, share{pkg, n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].bytes > out[j].bytes })
	return out, total, nil
}

// pkgOf is a function name's package, as the linker spells it: a path's
// slashes after a domain become underscores, as in
// "github.com_maxence_charriere_go_app_v10_pkg_app.nodeManager.Update",
// where "net/http.(*Client).Do" keeps them.
func pkgOf(fn string) string {
	if fn == "" {
		return "(unnamed)"
	}
	start := strings.LastIndex(fn, "/") + 1
	if first, _, ok := strings.Cut(fn, "_"); ok && strings.Contains(strings.TrimSuffix(first, "."), ".") {
		start = len(first) + 1 // a domain's dot is not the package's end
	}
	dot := strings.Index(fn[start:], ".")
	if dot < 0 {
		return fn
	}
	return fn[:start+dot]
}

func uleb(r io.ByteReader) (uint64, error) {
	return binary.ReadUvarint(r)
}

func readName(r *bytes.Reader) string {
	n, _ := uleb(r)
	b := make([]byte, n)
	io.ReadFull(r, b)
	return string(b)
}

func skipName(r *bytes.Reader) { readName(r) }

func limits(r *bytes.Reader) {
	flag, _ := r.ReadByte()
	uleb(r)
	if flag&1 != 0 {
		uleb(r)
	}
}
