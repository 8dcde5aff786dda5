// Package browsertest drives the page of taskdump.Handler in a real
// browser, Debian's chromium, through the DevTools protocol
// (github.com/chromedp/chromedp). It is a module of its own so that the
// core keeps to the standard library; it holds tests only.
package browsertest
