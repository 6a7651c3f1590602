// The embed script: defines <wallery-wall> (once, however often it is loaded).
import { WalleryWall } from './wall.js';

if (!customElements.get('wallery-wall')) customElements.define('wallery-wall', WalleryWall);

export { WalleryWall };
