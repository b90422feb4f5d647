package agui

import "iter"

// members splits a JSON object the decoder has read whole, and so found
// valid, into its members: each name as its quoted JSON string and each
// value as its JSON, both within object. Valid JSON needs no checking
// here, only its structure followed: strings (whose escapes may hide a
// quote), brackets, and the commas and colons between.
func members(object []byte) iter.Seq2[[]byte, []byte] {
	return func(yield func(name, value []byte) bool) {
		i := pastSpace(object, 0) + 1 // past '{'
		for {
			i = pastSpace(object, i)
			switch object[i] {
			case '}':
				return
			case ',':
				i = pastSpace(object, i+1)
			}
			nameEnd := pastString(object, i)
			start := pastSpace(object, pastSpace(object, nameEnd)+1) // past ':'
			end := pastValue(object, start)
			if !yield(object[i:nameEnd], object[start:end]) {
				return
			}
			i = end
		}
	}
}

// pastSpace is the index of the first byte from i that is not JSON white
// space.
func pastSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// pastString is the index just past the string that opens at i.
func pastString(data []byte, i int) int {
	for i++; data[i] != '"'; i++ {
		if data[i] == '\\' {
			i++ // the escaped byte, a quote perhaps
		}
	}
	return i + 1
}

// pastValue is the index just past the value that starts at i.
func pastValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return pastString(data, i)
	case '{', '[':
		for level := 0; ; {
			switch data[i] {
			case '"':
				i = pastString(data, i)
				continue
			case '{', '[':
				level++
			case '}', ']':
				if level--; level == 0 {
					return i + 1
				}
			}
			i++
		}
	}
	// A number, true, false or null: up to what follows it.
	for i < len(data) && data[i] != ',' && data[i] != '}' && data[i] != ']' &&
		data[i] != ' ' && data[i] != '\t' && data[i] != '\n' && data[i] != '\r' {
		i++
	}
	return i
}
