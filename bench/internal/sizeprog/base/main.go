// Command base is the baseline of the size comparison: the same printing
// and context use as the others, without any concurrency library.
package main

import (
	"context"
	"fmt"
)

func main() {
	ctx := context.Background()
	fmt.Println(1, "two", ctx.Err())
}
