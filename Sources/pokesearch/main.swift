import PokesearchCLI

PokesearchCommand.main()
