// A Gradle build script: Kotlin too, served by the same server.
plugins {
    kotlin("jvm") version "2.2.0"
}
