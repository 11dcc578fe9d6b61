import Glibc
import PushServer

ignoreBrokenPipes()
exit(Pushdeck.run(Array(CommandLine.arguments.dropFirst())))
