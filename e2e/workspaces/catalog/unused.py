import os


def greet(name):
    return "Hello, " + name
