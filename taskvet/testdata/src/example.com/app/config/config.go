package config

var Workers = 4
