// An honest Go program whose goroutines run on several threads of the runtime.
package main

import (
	"fmt"
	"runtime"
	"sync"
)

func main() {
	var n int64
	if _, err := fmt.Scan(&n); err != nil {
		return
	}
	runtime.GOMAXPROCS(2)
	part := make([]int64, 4)
	var wg sync.WaitGroup
	for k := 0; k < 4; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			part[k] = n / 4
			if k == 3 {
				part[k] = n - 3*(n/4)
			}
		}(k)
	}
	wg.Wait()
	fmt.Println(part[0] + part[1] + part[2] + part[3])
}
