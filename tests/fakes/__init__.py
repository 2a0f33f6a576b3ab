"""Stand-ins for devices, each with a real counterpart that some test also exercises."""
