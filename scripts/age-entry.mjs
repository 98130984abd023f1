// What the "Your view" page uses of typage (the age-encryption package), as one
// global: the page's own script, your-view.js, reads window.ftpressAge.
import { Decrypter, Encrypter, armor, generateX25519Identity, identityToRecipient }
  from "age-encryption";

window.ftpressAge = { Decrypter, Encrypter, armor, generateX25519Identity, identityToRecipient };
