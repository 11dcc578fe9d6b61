import Glibc
import PushSystem

ignoreBrokenPipes()
exit(Pushdeck.run(Array(CommandLine.arguments.dropFirst())))
