"""The window and what it shows of its own: menus, speakers, help, about, the tour."""
