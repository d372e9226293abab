//go:build !linux

// Command edge shows level- and edge-triggered epoll side by side; epoll is
// Linux's. (kqueue's EV_CLEAR flag is the same idea as EPOLLET: an event is
// reported once, when the state changes, and then cleared.)
package main

import "fmt"

func main() {
	fmt.Println("this demonstration uses epoll, which only Linux has")
}
