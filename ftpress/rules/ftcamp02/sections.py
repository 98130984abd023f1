from ftpress.rules.section_index import Indexed

SECTIONS: tuple[Indexed, ...] = ()
