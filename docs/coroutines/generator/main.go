// Command generator turns a ten-line generator into a coroutine with
// iter.Pull, and prints who runs when. docs/coroutines.md reads the output.
//
//	go run ./docs/coroutines/generator
package main

import (
	"fmt"
	"io"
	"iter"
	"os"
)

func main() { run(os.Stdout) }

// countdown is a generator: it hands out n, n-1, ..., 1, one at a time, to
// whoever iterates over it. i lives in countdown's own frame all along.
func countdown(w io.Writer, n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := n; i > 0; i-- {
			fmt.Fprintln(w, "  countdown: yielding", i)
			if !yield(i) {
				fmt.Fprintln(w, "  countdown: told to stop")
				return
			}
			fmt.Fprintln(w, "  countdown: resumed")
		}
	}
}

func run(w io.Writer) {
	next, stop := iter.Pull(countdown(w, 3))
	for {
		fmt.Fprintln(w, "main: next()")
		v, ok := next()
		if !ok {
			break
		}
		fmt.Fprintln(w, "main: got", v)
		if v == 2 {
			stop() // we have seen enough: countdown's yield returns false
			break
		}
	}
	fmt.Fprintln(w, "main: done")
}
