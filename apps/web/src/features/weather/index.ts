// What the weather feature offers other features (the header's services show the widget).
export { WeatherWidget } from './WeatherWidget';
